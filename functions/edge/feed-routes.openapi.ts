import * as z from 'zod/mini';
import { ELECTRON_CHANNEL_FILES, LICENSE_MESSAGES as M, TAURI_ARCHES, TAURI_TARGETS } from '../../shared/licensing/index.js';
import { PLATFORMS } from '../../shared/catalog/index.js';
import { RATE_LIMITS } from '../../shared/platform/rate-limits/index.js';
import { defineOperations, EX, examplePlatformFile, named, type OperationDoc } from '../../shared/platform/openapi/index.js';

const NO_LEASE = 'No live lease for this machine';
const fileUrl = (platform: string, fileName: string) => `${EX.baseUrl}/v1/download/${EX.releaseId}/${platform}/${fileName}?license_key=${EX.licenseKey}`;
const slugParameter = { slug: { schema: z.string(), description: "The product's slug.", example: 'acme-notes' } };
const feedQueryExamples = { license_key: EX.licenseKey, machine: 'c9f1e0a4b7d2' };
const feedErrors = {
  400: ['license_key is required', 'machine must be 1–128 printable characters', 'slug must be a product slug'],
  403: [M.notFound, M.wrongProduct, M.revoked, M.suspended, M.expired, NO_LEASE],
  404: ['Product not found'],
};
const ACCESS =
  "The key's channels, rollouts (drawn for `machine`, else the key) and updates after expiry decide the release offered, as in the " +
  "update check (DECISIONS §14), among the releases with a file for the feed's platforms. A floating license needs `machine` to hold " +
  `a live lease (403 \`${NO_LEASE}\`). File URLs are licensed downloads (\`GET /v1/download/{releaseId}/{platform}/{fileName}\`) carrying ` +
  "the feed's query, so they work when electron-updater puts the feed's query string in their place.";

const electronExample = [
  'version: "2.0.0"',
  'files:',
  `  - url: "${fileUrl('linux-x64', 'acme-notes_2.0.0_amd64.deb')}"`,
  `    sha512: "${examplePlatformFile.sha512}"`,
  '    size: 81234567',
  `path: "${fileUrl('linux-x64', 'acme-notes_2.0.0_amd64.deb')}"`,
  `sha512: "${examplePlatformFile.sha512}"`,
  `releaseDate: "${EX.created}"`,
  'releaseNotes: "Faster sync."',
  '',
].join('\n');

const electronOperation = (name: string, platforms: readonly string[]): OperationDoc => ({
  summary: `electron-updater channel file ${name}`,
  description:
    `electron-updater's generic provider (\`provider: generic\`, \`url: {base}/v1/feeds/{slug}/electron?license_key=…\`) reads it: the ` +
    `offered release's files for ${platforms.map((p) => `\`${p}\``).join(' and ')} with \`url\`, \`sha512\` and \`size\`, the first ` +
    'also as `path` and `sha512`, `releaseDate`, `releaseNotes`. ' +
    ACCESS +
    ' Nothing to offer (no release with such a file the key may have) is `version: "0.0.0"` with `files: []`, which electron-updater reads as no update.',
  pathParameters: slugParameter,
  queryExamples: feedQueryExamples,
  responses: { 200: { description: 'The channel file (YAML)', text: { contentType: 'text/yaml', example: electronExample } } },
  errors: feedErrors,
  rateLimits: [RATE_LIMITS.edgeReads],
});

const TauriUpdate = named(
  'TauriUpdate',
  z.object({ version: z.string(), notes: z.string(), pub_date: z.string(), url: z.string(), signature: z.string() }),
  "Tauri 2's updater answer: the release, its notes, when it was published (RFC 3339), the licensed download of its file for the " +
    "platform, and the file's minisign signature as the vendor gave it (empty when none was given: Tauri then refuses the update).",
);

const appcastExample = [
  '<?xml version="1.0" encoding="utf-8"?>',
  '<rss version="2.0" xmlns:sparkle="http://www.andymatuschak.org/xml-namespaces/sparkle" xmlns:dc="http://purl.org/dc/elements/1.1/">',
  '  <channel>',
  '    <title>Acme Notes</title>',
  '    <description>Updates of Acme Notes</description>',
  '    <item>',
  '      <title>Version 2.0.0</title>',
  '      <pubDate>Wed, 15 Jan 2025 10:00:00 GMT</pubDate>',
  '      <sparkle:version>2.0.0</sparkle:version>',
  '      <sparkle:shortVersionString>2.0.0</sparkle:shortVersionString>',
  '      <sparkle:minimumSystemVersion>12.0</sparkle:minimumSystemVersion>',
  `      <enclosure url="${fileUrl('macos-arm64', examplePlatformFile.fileName).replace(/&/g, '&amp;')}" length="${examplePlatformFile.fileSize}" type="application/octet-stream" sparkle:edSignature="${examplePlatformFile.signature}"/>`,
  '    </item>',
  '  </channel>',
  '</rss>',
  '',
].join('\n');

export const feedOperations = defineOperations({
  ...Object.fromEntries(Object.entries(ELECTRON_CHANNEL_FILES).map(([name, platforms]) => [`GET /v1/feeds/{slug}/electron/${name}`, electronOperation(name, platforms)])),
  'GET /v1/feeds/{slug}/tauri/{target}/{arch}/{current_version}': {
    summary: 'Tauri 2 updater endpoint',
    description:
      "Tauri's updater (`endpoints: [\"{base}/v1/feeds/{slug}/tauri/{{target}}/{{arch}}/{{current_version}}?license_key=…\"]`): 200 with " +
      'the offered release for the platform (`windows`/`darwin`/`linux` × `x86_64`/`aarch64` → `windows-x64` … `linux-arm64`) when it is ' +
      'newer than `current_version`, else 204. ' +
      ACCESS,
    pathParameters: {
      ...slugParameter,
      target: { schema: z.enum(TAURI_TARGETS), description: "Tauri's `{{target}}`.", example: 'darwin' },
      arch: { schema: z.enum(TAURI_ARCHES), description: "Tauri's `{{arch}}`.", example: 'aarch64' },
      current_version: { schema: z.string(), description: "The app's version (Tauri's `{{current_version}}`).", example: '1.9.0' },
    },
    queryExamples: feedQueryExamples,
    responses: {
      200: {
        description: 'An update',
        body: TauriUpdate,
        examples: {
          update: { version: '2.0.0', notes: 'Faster sync.', pub_date: EX.created, url: fileUrl('macos-arm64', 'Acme-Notes.app.tar.gz'), signature: 'dW50cnVzdGVkIGNvbW1lbnQ6IHNpZ25hdHVyZSBmcm9tIHRhdXJpIHNlY3JldCBrZXkK…' },
        },
      },
      204: { description: 'No newer release for this platform' },
    },
    errors: {
      ...feedErrors,
      400: [...feedErrors[400], `target must be one of ${TAURI_TARGETS.join(', ')}`, `arch must be one of ${TAURI_ARCHES.join(', ')}`, 'current_version must be a version such as 1.2.3'],
    },
    rateLimits: [RATE_LIMITS.edgeReads],
  },
  'GET /v1/feeds/{slug}/sparkle/appcast.xml': {
    summary: 'Sparkle appcast',
    description:
      "Sparkle's `SUFeedURL`: an RSS 2.0 channel in Sparkle's namespace whose items are the macOS releases the key may have, newest " +
      'first (up to 10: an older system gets the newest it can run), each with `sparkle:version`, `sparkle:shortVersionString`, ' +
      "`sparkle:minimumSystemVersion` (the release's `requires`, else the product's, when set) and an `enclosure` (`url`, `length`, `type`, " +
      '`sparkle:edSignature` when the file has a signature) for its `macos-arm64` file, else its `macos-x64` one. No release: a channel ' +
      'without items. ' +
      ACCESS,
    pathParameters: slugParameter,
    queryExamples: feedQueryExamples,
    responses: { 200: { description: 'The appcast (XML)', text: { contentType: 'application/xml', example: appcastExample } } },
    errors: feedErrors,
    rateLimits: [RATE_LIMITS.edgeReads],
  },
  'GET /v1/download/{releaseId}/{platform}/{fileName}': {
    summary: "Download a release's desktop file with a license key",
    description:
      "The file URLs of the desktop feeds: checks the key as `GET /v1/download/{releaseId}` does (its channels, updates after expiry), " +
      `and a floating license's \`machine\` for a live lease (403 \`${NO_LEASE}\`), then answers 302 to the file in storage and counts ` +
      'a download of the release.',
    pathParameters: {
      platform: { schema: z.enum(PLATFORMS), description: "The file's platform.", example: 'macos-arm64' },
      fileName: { schema: z.string(), description: "The file's name, as the release lists it.", example: examplePlatformFile.fileName },
    },
    queryExamples: feedQueryExamples,
    responses: {
      302: {
        description: 'To the file',
        headers: {
          location: { description: 'A storage URL valid 5 minutes that saves the file under its name', required: true },
          'cache-control': { description: '`no-store`', required: true },
        },
      },
    },
    errors: {
      400: ['license_key is required', 'machine must be 1–128 printable characters', `platform must be one of ${PLATFORMS.join(', ')}`, 'fileName must be a file name'],
      403: [M.notFound, M.wrongProduct, M.revoked, M.suspended, M.expired, 'Release not available to this license', NO_LEASE],
      404: ['Release not found', 'File not found'],
    },
    rateLimits: [RATE_LIMITS.downloads],
  },
});
