import * as z from 'zod/mini';
import { RELEASE_STATUSES } from '../../../shared/platform/data/index.js';
import { CHANNELS, MAX_SIGNATURE_LENGTH, PLATFORMS, type createUploadUrl, type PlatformFile as PlatformFileView, type Release as ReleaseView, type StoredFile as StoredFileView } from '../../../shared/catalog/index.js';
import { assertDescribes, defineOperations, described, EX, examplePlatformFile, exampleRelease, idOf, named, nullableTimestamp, timestamp } from '../../../shared/platform/openapi/index.js';

const text = z.nullable(z.string());

const PlatformFile = named(
  'PlatformFile',
  z.object({
    platform: z.enum(PLATFORMS),
    fileName: z.string(),
    fileSize: z.number(),
    filePath: z.string(),
    sha512: described(z.string(), 'SHA-512 of the file, base64 (88 characters), as electron-updater writes and checks it.'),
    signature: described(text, "The vendor's own signature of the file, served as given: Tauri's minisign signature (the `.sig` file's content), Sparkle's EdDSA signature."),
    createdAt: timestamp,
  }),
  'A desktop file of a release, for one platform (DECISIONS §26): what the update feeds offer (docs/desktop.md).',
);
assertDescribes<typeof PlatformFile, PlatformFileView>(true);

export const Release = named(
  'Release',
  z.object({
    id: idOf('rel'),
    productId: idOf('prd'),
    version: z.string(),
    releaseNotes: text,
    filePath: z.string(),
    fileName: z.string(),
    fileSize: z.number(),
    status: z.enum(RELEASE_STATUSES),
    downloadCount: z.number(),
    tested: text,
    requires: text,
    requiresPhp: text,
    channel: z.enum(CHANNELS),
    rolloutPercent: z.number(),
    files: described(z.array(PlatformFile), 'Its desktop files, one per platform at most (`POST …/releases/{releaseId}/files`).'),
    releasedAt: nullableTimestamp,
    createdAt: timestamp,
    updatedAt: timestamp,
  }),
  'A release: a ZIP file in storage and its update metadata. `releasedAt` is set when it is first published. `channel` ' +
    '(`stable`, `beta`, `alpha`) says which licenses receive it; `rolloutPercent` (1–100) what share of their sites the update ' +
    'check offers it to (docs/api.md, Release channels and rollouts). `tested`, `requires` and `requiresPhp` not given are ' +
    "filled from the ZIP's readme.txt, when it has one.",
);
assertDescribes<typeof Release, ReleaseView>(true);

const StoredFile = named('StoredFile', z.object({ filePath: z.string(), fileName: z.string(), fileSize: z.number() }), 'An uploaded file: create the release with its `filePath`.');
assertDescribes<typeof StoredFile, StoredFileView>(true);

const UploadUrl = named(
  'UploadUrl',
  z.object({ uploadUrl: z.string(), filePath: z.string(), fileName: z.string(), expiresAt: timestamp }),
  'A presigned `PUT` for exactly `fileSize` bytes, valid 15 minutes.',
);
assertDescribes<typeof UploadUrl, Awaited<ReturnType<typeof createUploadUrl>>>(true);

/** The upload route reads its multipart body itself (shared/catalog/releases/upload-form.ts); this is its shape. */
const uploadForm = z.object({
  file: described(z.file(), 'The ZIP file (checked by content), at most 4 MiB.'),
  version: z.optional(described(z.string(), 'Kept as file metadata.')),
});

const productGone = ['Product not found'];
const fileProblems = [
  'filePath: must be a path returned by an upload for this product',
  'filePath: no uploaded file at this path',
  'filePath: the uploaded file is not a ZIP archive',
  'fileSize: does not match the uploaded file',
];

export const releaseOperations = defineOperations({
  'GET /api/products/{id}/releases': {
    summary: "List a product's releases",
    description: 'Every release, newest first (not paginated).',
    responses: { 200: { description: 'The releases', body: named('ReleaseList', z.object({ items: z.array(Release) })), examples: { releases: { items: [exampleRelease] } } } },
  },
  'POST /api/products/{id}/releases': {
    summary: 'Create a release',
    description:
      'From a file uploaded for this product (`filePath` of an upload or upload URL). `status` defaults to `published`; ' +
      "the product's `latestVersion` follows in the same transaction. `channel` defaults to `stable`, `rolloutPercent` to 100. " +
      "A readme.txt in the ZIP (at its root or one folder down) is read now: it fills `tested`, `requires` and `requiresPhp` where " +
      "the body does not set them, and gives the update check its sections and upgrade notice. A published release emits `release.published`. " +
      '`version` may be left out when the ZIP names it (DECISIONS §22): the `Version:` header of the plugin\'s main PHP file, else of a ' +
      "theme's style.css, else readme.txt's `Stable tag`. A second published release of an equal version (compared as versions: " +
      '`1.2` = `1.2.0`) is 409; drafts may share a version until one of them is published. `tested`, `requires` and `requiresPhp` are ' +
      'version numbers such as 6.7 or 8.2.1.',
    requestBody: {
      examples: {
        publish: { version: '2.0.0', filePath: EX.filePath, releaseNotes: 'Faster sitemaps.', tested: '6.7' },
        beta: { version: '2.1.0-beta.1', filePath: EX.filePath, channel: 'beta', rolloutPercent: 20 },
        versionFromZip: { filePath: EX.filePath, releaseNotes: 'Faster sitemaps.' },
      },
    },
    responses: { 201: { description: 'The release', body: Release, examples: { created: { ...exampleRelease, downloadCount: 0 } } } },
    errors: {
      400: [
        'version is required: the ZIP names none (no plugin header Version:, theme style.css Version: or readme.txt Stable tag)',
        'tested: must be a version number such as 6.7 or 8.2.1',
        ...fileProblems,
      ],
      409: ['Release 2.0.0 already exists'],
    },
  },
  'POST /api/products/{id}/releases/upload': {
    summary: 'Upload a release file (≤ 4 MiB)',
    description:
      'A ZIP (checked by its first bytes) of at most 4 MiB (4 × 1024 × 1024 bytes), in a body of at most 4 MiB + 64 KiB, refused by ' +
      'its `Content-Length` before it is read. The body reaches the function base64-encoded, a third larger, within ' +
      "Lambda's 6 MiB: a body much over the limit is refused by API Gateway itself (`413 {\"message\":\"Request Entity Too Large\"}`, " +
      'without CORS headers). Larger files: `POST …/releases/upload-url`. Nothing is stored unless the upload is accepted.',
    requestBody: {
      contentType: 'multipart/form-data',
      schema: uploadForm,
      description: '`file` (required) and `version` (optional).',
      examples: { upload: { file: '(the bytes of acme-seo-2.0.0.zip)', version: '2.0.0' } },
    },
    responses: { 201: { description: 'Stored', body: StoredFile, examples: { stored: { filePath: EX.filePath, fileName: 'acme-seo-2.0.0.zip', fileSize: 482133 } } } },
    errors: {
      400: ['file is required', 'file: must be a ZIP archive', 'Only one file may be uploaded', 'Malformed multipart body'],
      413: ['file is larger than 4 MiB; use an upload URL'],
      415: ['Content-Type must be multipart/form-data'],
    },
  },
  'POST /api/products/{id}/releases/upload-url': {
    summary: 'Get a presigned upload URL (≤ 500 MB)',
    description: 'Send the bytes with `PUT uploadUrl`, then create the release with `filePath`; the ZIP check happens then.',
    requestBody: { examples: { big: { fileName: 'acme-seo-2.0.0.zip', fileSize: 73400320 } } },
    responses: {
      200: {
        description: 'Where to send the file',
        body: UploadUrl,
        examples: { url: { uploadUrl: 'https://bucket.s3.amazonaws.com/releases/…?X-Amz-Signature=…', filePath: EX.filePath, fileName: 'acme-seo-2.0.0.zip', expiresAt: EX.updated } },
      },
    },
    errors: { 400: ['fileSize: must be at most 500 MB'] },
  },
  'GET /api/products/{id}/releases/{releaseId}': {
    summary: 'Get a release',
    responses: { 200: { description: 'The release', body: Release, examples: { release: exampleRelease } } },
    errors: { 404: productGone },
  },
  'PUT /api/products/{id}/releases/{releaseId}': {
    summary: 'Update a release',
    description:
      'Partial; `null` clears `releaseNotes`, `tested`, `requires`, `requiresPhp`. A new `filePath` reads the new ZIP\'s readme.txt ' +
      "(filling the metadata this body does not set). Publishing a release emits `release.published`; changing a published release's " +
      '`channel` or `rolloutPercent` emits `release.updated`, and the update check offers it as changed at once. Publishing a release, ' +
      'or giving a published one a new `version`, is 409 when another published release has that version.',
    requestBody: { examples: { archive: { status: 'archived' }, widen: { rolloutPercent: 50 } } },
    responses: { 200: { description: 'The release', body: Release, examples: { updated: { ...exampleRelease, status: 'archived' } } } },
    errors: { 400: fileProblems, 404: productGone, 409: ['Release 2.0.0 already exists', 'Release was changed concurrently; retry'] },
  },
  'POST /api/products/{id}/releases/{releaseId}/files': {
    summary: 'Add a desktop file to a release',
    description:
      'A file for one platform (`' + PLATFORMS.join('`, `') + '`) that the desktop update feeds offer (docs/desktop.md): any bytes, ' +
      'sent first to an upload URL (`POST …/releases/upload-url`), whose `filePath` this names. `fileSize` must be the stored size and ' +
      'at most 500 MB (413 over it, as an upload over the limit); `sha512` is the file\'s SHA-512 in base64 as electron-builder writes ' +
      'it in `latest.yml` (electron-updater checks it on every download; the service does not read the file); `signature` is the ' +
      "vendor's own (Tauri's minisign `.sig` content, Sparkle's `sparkle:edSignature`), served as given. A platform the release has " +
      "a file for already gets the new one in its place. The release's feeds serve it at once.",
    requestBody: {
      examples: {
        macArm: { platform: 'macos-arm64', fileName: examplePlatformFile.fileName, fileSize: examplePlatformFile.fileSize, filePath: examplePlatformFile.filePath, sha512: examplePlatformFile.sha512, signature: examplePlatformFile.signature },
      },
    },
    responses: { 201: { description: 'The file', body: PlatformFile, examples: { added: examplePlatformFile } } },
    errors: {
      400: [
        `platform must be one of ${PLATFORMS.join(', ')}`,
        'sha512 must be the SHA-512 of the file in base64 (64 bytes, 88 characters)',
        `signature: must be at most ${MAX_SIGNATURE_LENGTH} characters`,
        'filePath: must be a path returned by an upload URL for this product',
        'filePath: no uploaded file at this path',
        'fileSize: does not match the uploaded file',
      ],
      404: productGone,
      409: ['Release was changed concurrently; retry'],
      413: ['fileSize: must be at most 500 MB'],
    },
  },
  'DELETE /api/products/{id}/releases/{releaseId}': {
    summary: 'Delete a release',
    description: 'Its file stays in storage.',
    responses: { 204: { description: 'Deleted' } },
    errors: { 404: productGone, 409: ['Release was changed concurrently; retry'] },
  },
});
