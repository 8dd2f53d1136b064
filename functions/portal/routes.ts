import * as z from 'zod/mini';
import { type Config, type Deps, ForbiddenError, NotFoundError, UnauthorizedError } from '../../shared/platform/index.js';
import { API_KEY_MESSAGES, bearerKeyOwner, type Permission, ROLE_REFUSED, roleAllows } from '../../shared/identity/index.js';
import { normalizeEmail } from '../../shared/customers/index.js';
import { checkIdShape, email as emailAddress, type HttpEvent, type IdKind, jsonBody, type Method, ok, parseInput, query, redirect, requestBaseUrl, requiredText, type Route } from '../../shared/platform/http/index.js';
import { LICENSE_NOT_FOUND, RELEASE_NOT_FOUND, transferLicense } from '../../shared/licensing/index.js';
import { type PaymentDeps, PLAN_NOT_FOUND } from '../../shared/billing/index.js';
import { cancelSubscription, changePortalPlan, type LinkSecret, portalDownloads, portalInvoices, portalLicenses, portalOverview, type PortalScope, portalSubscriptions, signedDownload, SUBSCRIPTION_NOT_FOUND } from '../../shared/portal/index.js';
import { RATE_LIMITS, type RateLimiter } from '../../shared/platform/rate-limits/index.js';
import type { DownloadLinks } from '../../shared/platform/storage/index.js';

/** Unknown query parameters are ignored; `email` is the customer's, trusted as the vendor's server gives it (SERVICE-SPEC §4.7). */
const emailQuery = z.object({ email: requiredText('email', 254) });
/** Either may be missing or wrong: the link is then refused (403), never a 400. */
const linkQuery = z.object({ expires: z.optional(z.string()), signature: z.optional(z.string()) });
const SUBSCRIPTION: IdKind = { prefix: 'sub', unknown: () => new NotFoundError(SUBSCRIPTION_NOT_FOUND) };
const RELEASE: IdKind = { prefix: 'rel', unknown: () => new NotFoundError(RELEASE_NOT_FOUND) };
const LICENSE: IdKind = { prefix: 'lic', unknown: () => new NotFoundError(LICENSE_NOT_FOUND) };
/** A transfer names the customer (`email`, as the other portal routes do in their query) and the new owner in its body. */
const transferBody = z.strictObject({ email: requiredText('email', 254), toEmail: emailAddress });

/** A portal change with a body: the customer's e-mail travels in it (DECISIONS §15). */
const changePlanBody = z.object({ email: requiredText('email', 254), planId: requiredText('planId', 64) });
const PLAN: IdKind = { prefix: 'pln', unknown: () => new NotFoundError(PLAN_NOT_FOUND) };

type PortalContext = { limits: RateLimiter; secret: LinkSecret; links: DownloadLinks };
type Read = (scope: PortalScope, event: HttpEvent, body: { planId?: string }) => Promise<unknown>;

/** The customer portal (SERVICE-SPEC §4.7) and the signed download its links lead to (DECISIONS §5). */
export function portalRoutes(deps: Deps<Config<'links'>> & PaymentDeps, { limits, secret, links }: PortalContext): Route[] {
  /**
   * The key's owner (401 without a usable key) when its role may do what the route does (403, as the management API
   * answers it: a portal change is the change its management route makes), within the key's rate limit (429).
   */
  async function keyOwner(event: HttpEvent, permission: Permission) {
    const owner = await bearerKeyOwner(deps, event);
    if (!owner) throw new UnauthorizedError(API_KEY_MESSAGES.missing);
    if (!roleAllows(owner.role, permission)) throw new ForbiddenError(ROLE_REFUSED);
    await limits.take(RATE_LIMITS.portal, owner.apiKeyId);
    return owner;
  }

  /**
   * Checked in this order: the secret key (401), its role (403), its rate limit (429), `email` (400), the path's ids (404, as
   * unknown ones); then `run` reads within the key owner's customers with that e-mail, answered as `{data}`.
   */
  function portal(method: Method, path: string, pathIds: Record<string, IdKind>, run: Read, permission: Permission = 'read', body?: typeof changePlanBody): Route {
    return {
      method,
      path,
      input: body ? { body, pathIds } : { query: emailQuery, pathIds },
      handler: async (event) => {
        const owner = await keyOwner(event, permission);
        const input: { email: string; planId?: string } = body ? parseInput(body, jsonBody(event)) : parseInput(emailQuery, query(event));
        for (const [name, kind] of Object.entries(pathIds)) checkIdShape(kind, event.pathParameters![name]!);
        if (input.planId !== undefined) checkIdShape(PLAN, input.planId);
        return ok({ data: await run({ tenantId: owner.userId, email: normalizeEmail(input.email) }, event, input) });
      },
    };
  }
  const baseUrlOf = (event: HttpEvent) => requestBaseUrl(event, deps.config.publicBaseUrl);

  /** The key (401), its role (403) and its rate limit (429), as `portal` checks them; then the body (400) and the path's id (404). */
  const transfer: Route = {
    method: 'POST',
    path: '/v1/portal/licenses/{id}/transfer',
    input: { body: transferBody, pathIds: { id: LICENSE } },
    handler: async (event) => {
      const owner = await keyOwner(event, 'licenseSupport');
      const body = parseInput(transferBody, jsonBody(event));
      checkIdShape(LICENSE, event.pathParameters!.id!);
      // The tenant's transfers, with those of the management API: each e-mails the license (DECISIONS §15).
      await limits.take(RATE_LIMITS.licenseTransferTenant, owner.userId);
      const license = await transferLicense(deps, owner.userId, event.pathParameters!.id!, { email: body.toEmail, currentOwner: normalizeEmail(body.email) }, baseUrlOf(event));
      return ok({ data: { id: license.id, licenseKey: license.licenseKey, customerEmail: license.customerEmail, status: license.status, activatedCount: license.activatedCount } });
    },
  };

  return [
    portal('GET', '/v1/portal/overview', {}, (scope) => portalOverview(deps, scope)),
    portal('GET', '/v1/portal/licenses', {}, (scope) => portalLicenses(deps, scope)),
    portal('GET', '/v1/portal/downloads', {}, (scope, event) => portalDownloads(deps, secret, scope, baseUrlOf(event))),
    portal('GET', '/v1/portal/invoices', {}, (scope) => portalInvoices(deps, scope)),
    portal('GET', '/v1/portal/subscriptions', {}, (scope) => portalSubscriptions(deps, scope)),
    transfer,
    portal('POST', '/v1/portal/subscriptions/{id}/cancel', { id: SUBSCRIPTION }, (scope, event) =>
      cancelSubscription(deps, scope, event.pathParameters!.id!),
      'billing',
    ),
    portal(
      'POST',
      '/v1/portal/subscriptions/{id}/change-plan',
      { id: SUBSCRIPTION },
      (scope, event, body) => changePortalPlan(deps, scope, event.pathParameters!.id!, body.planId!),
      'billing',
      changePlanBody,
    ),
    {
      method: 'GET',
      path: '/dl/{releaseId}',
      input: { query: linkQuery, pathIds: { releaseId: RELEASE } },
      handler: async (event) => {
        const link = parseInput(linkQuery, query(event));
        return redirect(302, await signedDownload(deps, { secret, links }, { releaseId: event.pathParameters!.releaseId!, ...link }));
      },
    },
  ];
}
