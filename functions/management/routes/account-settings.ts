import * as z from 'zod/mini';
import { COMPOSER_VENDOR_PATTERN, COMPOSER_VENDOR_RULE, ensureAccountSettings, MAX_COMPOSER_VENDOR_LENGTH, setComposerVendor } from '../../../shared/catalog/index.js';
import { ok, type Route } from '../../../shared/platform/http/index.js';
import { type Deps, lazily } from '../../../shared/platform/index.js';
import type { RouteBuilders } from '../route.js';

/** The routes' schemas, built with the first request that reads one (functions/management/route.ts: `SchemaSource`). */
const schemas = lazily(() => ({
  settingsBody: z.strictObject({
    composerVendor: z.string().check(z.minLength(1), z.maxLength(MAX_COMPOSER_VENDOR_LENGTH), z.regex(COMPOSER_VENDOR_PATTERN, COMPOSER_VENDOR_RULE)),
  }),
}));

/** The account's settings (DECISIONS §24: its Composer vendor name), one set per tenant. */
export function accountSettingsRoutes(deps: Deps, { authed }: RouteBuilders): Route[] {
  const path = '/api/account/settings';
  return [
    // Reading them claims the default vendor of an account that has none yet: a write, but no change the tenant made.
    authed('GET', path, { permission: 'read' }, async ({ caller }) => ok(await ensureAccountSettings(deps, caller.tenantId))),
    authed('PUT', path, { body: () => schemas().settingsBody, permission: 'catalog', audit: { action: 'accountSettings.update', target: 'accountSettings', idField: 'tenantId' } }, async ({ caller, body }) =>
      ok(await setComposerVendor(deps, caller.tenantId, body.composerVendor)),
    ),
  ];
}
