import * as z from 'zod/mini';
import { EXPORT_FORMATS, type ExportJobDeps, getExport, requestExport } from '../../../shared/portability/index.js';
import { json, ok, type Route } from '../../../shared/platform/http/index.js';
import { ID_KINDS } from '../id-kinds.js';
import type { RouteBuilders } from '../route.js';
import { lazily } from '../../../shared/platform/index.js';

/** Built with the first request that reads it (functions/management/route.ts: `SchemaSource`). */
const exportBody = lazily(() => z.strictObject({ format: z.enum(EXPORT_FORMATS) }));

/** The account export (DECISIONS §16): started here, written by the export worker, fetched by a presigned link. */
export function exportRoutes(deps: ExportJobDeps, { authed }: RouteBuilders): Route[] {
  return [
    authed('POST', '/api/exports', { body: exportBody, verifiedOnly: true, permission: 'data', audit: { action: 'export.create', target: 'exportJob', idField: 'exportId' } }, async ({ caller, body }) => json(202, await requestExport(deps, caller.tenantId, body.format))),
    authed('GET', '/api/exports/{id}', { pathIds: { id: ID_KINDS.export }, permission: 'data' }, async ({ caller, params }) =>
      ok(await getExport(deps, caller.tenantId, params.id!), { headers: { 'cache-control': 'no-store' } }),
    ),
  ];
}
