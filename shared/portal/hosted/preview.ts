import { transact } from '../../platform/data/index.js';
import { BadRequestError, type Deps, randomBase32, sha256Hex } from '../../platform/index.js';
import { loadLiveProduct } from '../../catalog/index.js';
import { loadCustomer } from '../../customers/index.js';
import { licensesOf, type PortalScope } from '../customer-scope.js';
import { getPortalSettings } from './portal-settings.js';
import { epochSeconds, takeLink } from './sign-in.js';

type PreviewDeps = Pick<Deps, 'data' | 'clock'>;

/**
 * A vendor's "View as customer" (issue 51): a one-time link the dashboard opens at once, so it needs only the minutes
 * between the click and the new tab; its session needs only as long as a look at one customer's portal.
 */
export const PREVIEW_LINK_MINUTES = 5;
export const PREVIEW_SESSION_SECONDS = 3600;

export const PORTAL_OFF = 'The customer portal is off: turn it on first (PUT /api/portal-settings with enabled: true) to view it as a customer';
export const NO_PREVIEW_PRODUCT = 'The customer has no license: give the productId of the product the portal should open on';

/** The public key of the product of the customer's newest license whose product is live, if any (their licenses are few). */
async function newestLicensedProduct(deps: PreviewDeps, scope: PortalScope): Promise<string | undefined> {
  const productIds = [...new Set((await licensesOf(deps, scope)).map((license) => license.productId))];
  for (const productId of productIds) {
    const { data } = await deps.data.entities.product.get({ productId }).go({ attributes: ['tenantId', 'publicKey', 'deletedAt'] });
    if (data && data.tenantId === scope.tenantId && !data.deletedAt) return data.publicKey;
  }
  return undefined;
}

/**
 * A one-time link `{baseUrl}/portal/preview?token=…` (5 minutes) to the hosted portal as the customer sees it, opened on
 * `productId` (a live product of the vendor's, else 404), else on the product of the customer's newest license (none:
 * 400). An unknown customer or another vendor's is 404; a portal that is off, 400. The link's item is written in a
 * transaction, which carries the route's audit entry.
 */
export async function createPortalPreview(deps: PreviewDeps, tenantId: string, customerId: string, productId: string | undefined, baseUrl: string) {
  const [customer, settings] = await Promise.all([loadCustomer(deps, tenantId, customerId), getPortalSettings(deps, tenantId)]);
  const chosen = productId === undefined ? undefined : (await loadLiveProduct(deps, tenantId, productId)).publicKey;
  if (!settings.enabled) throw new BadRequestError(PORTAL_OFF);
  const publicKey = chosen ?? (await newestLicensedProduct(deps, { tenantId, email: customer.email }));
  if (!publicKey) throw new BadRequestError(NO_PREVIEW_PRODUCT);

  const token = randomBase32(20);
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + PREVIEW_LINK_MINUTES * 60_000);
  const outcome = await transact(deps.data, (tx) => ({
    link: tx.portalSignIn
      .create({ signInHash: sha256Hex(token), tenantId, email: customer.email, publicKey, preview: true, customerId, createdAt: now.toISOString(), ttl: epochSeconds(expiresAt) })
      .commit(),
  }));
  if (!outcome.committed) throw outcome.unexpected();
  return { url: `${baseUrl}/portal/preview?token=${token}`, expiresAt: expiresAt.toISOString() };
}
export type PortalPreview = Awaited<ReturnType<typeof createPortalPreview>>;

/**
 * Uses a preview link while its 5 minutes last, once (an e-mailed sign-in link starts no preview): a read-only session
 * as that customer, for an hour. Undefined for a bad, used or expired token.
 */
export const takePreview = (deps: PreviewDeps, token: string | undefined) => takeLink(deps, token, { preview: true, seconds: PREVIEW_SESSION_SECONDS });
