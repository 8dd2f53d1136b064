import * as z from 'zod/mini';
import { PAYMENT_PROVIDERS } from '../../../shared/platform/data/index.js';
import { email, noContent, ok, type Route } from '../../../shared/platform/http/index.js';
import { connectProvider, disconnectProvider, type PaymentDeps, providerStatus, updateTaxSettings } from '../../../shared/billing/index.js';
import { type Deps, lazily } from '../../../shared/platform/index.js';
import type { RouteBuilders } from '../route.js';

/** The routes' schemas, built with the first request that reads one (functions/management/route.ts: `SchemaSource`). */
const schemas = lazily(() => {
  /** Stripe's shapes: a secret (`sk_`) or restricted (`rk_`) key, test or live, and an endpoint signing secret. */
  const connectBody = z.strictObject({
    provider: z.enum(PAYMENT_PROVIDERS),
    secretKey: z.string().check(z.regex(/^(sk|rk)_(test|live)_[A-Za-z0-9]{10,247}$/, 'must be a Stripe secret key (sk_…) or restricted key (rk_…)')),
    webhookSecret: z.string().check(z.regex(/^whsec_[A-Za-z0-9+/=]{10,250}$/, 'must be a Stripe webhook signing secret (whsec_…)')),
    /** How license e-mails name the vendor, and where buyers' replies go; default: the account's name and e-mail. */
    sellerName: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
    replyTo: z.optional(email),
    automaticTax: z.optional(z.boolean()),
    taxIdCollection: z.optional(z.boolean()),
  });
  /** The settings a connection keeps, changed without sending its secrets again (DECISIONS §15). */
  const settingsBody = z.strictObject({ automaticTax: z.optional(z.boolean()), taxIdCollection: z.optional(z.boolean()) });
  return { connectBody, settingsBody };
});

export function paymentProviderRoutes(deps: Deps & PaymentDeps, { authed }: RouteBuilders): Route[] {
  const path = '/api/payment-provider';
  return [
    authed('GET', path, { permission: 'paymentProvider' }, async ({ caller, baseUrl }) => ok(await providerStatus(deps, caller.tenantId, baseUrl))),
    authed('PUT', path, { body: () => schemas().connectBody, sessionOnly: true, verifiedOnly: true, permission: 'paymentProvider', audit: { action: 'paymentProvider.connect', target: 'paymentProvider', idField: 'tenantId' } }, async ({ caller, body, baseUrl }) => ok(await connectProvider(deps, caller.tenantId, body, baseUrl))),
    authed('PATCH', path, { body: () => schemas().settingsBody, permission: 'paymentProvider', audit: { action: 'paymentProvider.update', target: 'paymentProvider', idField: 'tenantId' } }, async ({ caller, body, baseUrl }) => ok(await updateTaxSettings(deps, caller.tenantId, body, baseUrl))),
    authed('DELETE', path, { permission: 'paymentProvider', audit: { action: 'paymentProvider.disconnect', target: 'paymentProvider', idField: 'tenantId' } }, async ({ caller }) => {
      await disconnectProvider(deps, caller.tenantId);
      return noContent();
    }),
  ];
}
