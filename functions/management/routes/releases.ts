import * as z from 'zod/mini';
import { RELEASE_STATUSES } from '../../../shared/platform/data/index.js';
import { addPlatformFile, CHANNELS, createRelease, createUploadUrl, deleteRelease, getRelease, listReleases, MAX_API_UPLOAD_BODY_BYTES, MAX_API_UPLOAD_BYTES, MAX_DIRECT_UPLOAD_BYTES, parseUploadForm, storeUploadedFile, updateRelease, MAX_SIGNATURE_LENGTH, PLATFORMS, PLATFORM_VERSION_PATTERN, SHA512_BASE64_PATTERN, SHA512_RULE, PLATFORM_VERSION_RULE, VERSION_PATTERN, VERSION_RULE } from '../../../shared/catalog/index.js';
import { created, header, type HttpEvent, noContent, ok, rawBody, type Route } from '../../../shared/platform/http/index.js';
import { type Deps, lazily } from '../../../shared/platform/index.js';
import type { StorageDeps } from '../../../shared/platform/storage/index.js';
import { ID_KINDS } from '../id-kinds.js';
import type { RouteBuilders } from '../route.js';

/** The routes' schemas, built with the first request that reads one (functions/management/route.ts: `SchemaSource`). */
const schemas = lazily(() => {
  const text = (max: number) => z.nullish(z.string().check(z.maxLength(max)));
  const platformVersion = z.nullish(z.string().check(z.regex(PLATFORM_VERSION_PATTERN, PLATFORM_VERSION_RULE)));
  const fileName = z.string().check(z.minLength(1), z.maxLength(255));

  const releaseFields = {
    version: z.string().check(z.regex(VERSION_PATTERN, VERSION_RULE)),
    releaseNotes: text(50_000),
    filePath: z.string().check(z.minLength(1), z.maxLength(1024)),
    fileName,
    fileSize: z.number().check(z.int(), z.gte(0)),
    status: z.enum(RELEASE_STATUSES),
    tested: platformVersion,
    requires: platformVersion,
    requiresPhp: platformVersion,
    channel: z.enum(CHANNELS),
    rolloutPercent: z.number().check(z.int(), z.gte(1), z.lte(100)),
  };

  const createBody = z.strictObject({
    ...releaseFields,
    // Left out: the version the ZIP names (DECISIONS §22).
    version: z.optional(releaseFields.version),
    fileName: z.optional(releaseFields.fileName),
    fileSize: z.optional(releaseFields.fileSize),
    status: z.optional(releaseFields.status),
    channel: z.optional(releaseFields.channel),
    rolloutPercent: z.optional(releaseFields.rolloutPercent),
  });
  const updateBody = z.partial(createBody);
  const uploadUrlBody = z.strictObject({
    fileName,
    fileSize: z.number().check(z.int(), z.gte(1), z.lte(MAX_DIRECT_UPLOAD_BYTES, `must be at most ${MAX_DIRECT_UPLOAD_BYTES / (1024 * 1024)} MB`)),
  });
  // The size limit is the domain's (413, as an upload over it: DECISIONS §3); here only its shape.
  const platformFileBody = z.strictObject({
    platform: z.enum(PLATFORMS, { error: `platform must be one of ${PLATFORMS.join(', ')}` }),
    fileName,
    fileSize: z.number().check(z.int(), z.gte(1)),
    filePath: releaseFields.filePath,
    sha512: z.string().check(z.regex(SHA512_BASE64_PATTERN, `sha512 ${SHA512_RULE}`)),
    signature: z.optional(z.string().check(z.minLength(1), z.maxLength(MAX_SIGNATURE_LENGTH))),
  });
  return { createBody, updateBody, uploadUrlBody, platformFileBody };
});

/** A multipart upload reads its own body; it is checked, like JSON bodies, before the product is looked up. */
const readUploadForm = (event: HttpEvent) =>
  parseUploadForm({ contentType: header(event, 'content-type'), contentLength: header(event, 'content-length') }, rawBody(event), {
    fileBytes: MAX_API_UPLOAD_BYTES,
    bodyBytes: MAX_API_UPLOAD_BODY_BYTES,
  });

export function releaseRoutes(deps: Deps & StorageDeps, { authed }: RouteBuilders): Route[] {
  const base = '/api/products/{id}/releases';
  const ofProduct = { pathIds: { id: ID_KINDS.product } };
  const byId = { pathIds: { id: ID_KINDS.product, releaseId: ID_KINDS.release } };
  return [
    authed('GET', base, { ...ofProduct, permission: 'read' }, async ({ caller, params }) => ok({ items: await listReleases(deps, caller.tenantId, params.id!) })),
    authed('POST', base, { ...ofProduct, body: () => schemas().createBody, permission: 'catalog', audit: { action: 'release.create', target: 'release' } }, async ({ caller, params, body }) =>
      created(await createRelease(deps, caller.tenantId, params.id!, body)),
    ),
    authed('POST', `${base}/upload`, { ...ofProduct, readBody: readUploadForm, permission: 'catalog', audit: false }, async ({ caller, params, body }) =>
      created(await storeUploadedFile(deps, caller.tenantId, params.id!, body)),
    ),
    authed('POST', `${base}/upload-url`, { ...ofProduct, body: () => schemas().uploadUrlBody, permission: 'catalog', audit: false }, async ({ caller, params, body }) =>
      ok(await createUploadUrl(deps, caller.tenantId, params.id!, body)),
    ),
    authed('GET', `${base}/{releaseId}`, { ...byId, permission: 'read' }, async ({ caller, params }) =>
      ok(await getRelease(deps, caller.tenantId, params.id!, params.releaseId!)),
    ),
    authed('PUT', `${base}/{releaseId}`, { ...byId, body: () => schemas().updateBody, permission: 'catalog', audit: { action: 'release.update', target: 'release' } }, async ({ caller, params, body }) =>
      ok(await updateRelease(deps, caller.tenantId, params.id!, params.releaseId!, body)),
    ),
    authed('POST', `${base}/{releaseId}/files`, { ...byId, body: () => schemas().platformFileBody, permission: 'catalog', audit: { action: 'release.addFile', target: 'release' } }, async ({ caller, params, body }) =>
      created(await addPlatformFile(deps, caller.tenantId, params.id!, params.releaseId!, body)),
    ),
    authed('DELETE', `${base}/{releaseId}`, { ...byId, permission: 'catalog', audit: { action: 'release.delete', target: 'release' } }, async ({ caller, params }) => {
      await deleteRelease(deps, caller.tenantId, params.id!, params.releaseId!);
      return noContent();
    }),
  ];
}
