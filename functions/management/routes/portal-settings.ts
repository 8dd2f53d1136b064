import * as z from 'zod/mini';
import { email, ok, type Route } from '../../../shared/platform/http/index.js';
import { type Deps, lazily } from '../../../shared/platform/index.js';
import { getPortalSettings, putPortalSettings } from '../../../shared/portal/index.js';
import type { RouteBuilders } from '../route.js';

/** Built with the first request that reads it (functions/management/route.ts: `SchemaSource`). */
const settingsBody = lazily(() =>
  z.strictObject({
    enabled: z.optional(z.boolean()),
    name: z.optional(z.nullable(z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(100, 'must be at most 100 characters')))),
    // Shown on the buyers' pages, which are https in AWS: an http logo would be mixed content.
    logoUrl: z.optional(z.nullable(z.url({ protocol: /^https$/, message: 'must be an https URL' }).check(z.maxLength(2048, 'must be at most 2048 characters')))),
    accentColor: z.optional(z.nullable(z.string().check(z.regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour as #rrggbb')))),
    supportEmail: z.optional(z.nullable(email)),
  }),
);

/** The hosted customer portal's settings (DECISIONS §25): the owner's and admins' alone, reading included. */
export function portalSettingsRoutes(deps: Deps, { authed }: RouteBuilders): Route[] {
  const path = '/api/portal-settings';
  return [
    authed('GET', path, { permission: 'portal' }, async ({ caller }) => ok(await getPortalSettings(deps, caller.tenantId))),
    authed('PUT', path, { body: settingsBody, permission: 'portal', audit: { action: 'portalSettings.update', target: 'portalSettings', idField: 'tenantId' } }, async ({ caller, body }) =>
      ok(await putPortalSettings(deps, caller.tenantId, body)),
    ),
  ];
}
