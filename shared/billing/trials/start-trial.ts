import { customerLinkItems, normalizeEmail, resolveCustomerLink } from '../../customers/index.js';
import { counterNames, counterUpdates, transact } from '../../platform/data/index.js';
import { BadRequestError, ConflictError, type Deps, newId } from '../../platform/index.js';
import { licenseMailItem, outboxEvent, portalLinkOf } from '../../messaging/index.js';
import { expiryItemChanges, generateLicenseKey, type LicenseItem, type ProductCatalog, toLicense } from '../../licensing/index.js';
import { composerInstallOf, grantedFeatures } from '../../catalog/index.js';
import { planOnSale, productOfPublicKey } from '../payments/public-plans.js';
import { claimAddress } from './claim-address.js';

export const TRIAL_TAKEN = 'A trial was already started for this e-mail';
export const NO_TRIAL = 'This plan has no trial';
const DAY_MS = 24 * 3600 * 1000;
const ROUNDS = 5;

/** `baseUrl`: the service's address (of the Composer repository and the portal, in the license e-mail). */
export type TrialRequest = { publicKey: string; plan: string; email: string; baseUrl: string };

/**
 * A no-card trial (DECISIONS §15): a license of the plan's seats expiring after its `trialDays`, e-mailed to the
 * buyer. One per e-mail and product, held by the trial claim created in the license's own transaction (409 when
 * taken), keyed by the address's claim form (claim-address.ts: `j.doe+x@gmail.com` claims for `jdoe@gmail.com`).
 * A later paid checkout with the e-mail continues this license (shared/billing/trials/trial-continuation.ts).
 */
export async function startTrial(deps: Pick<Deps, 'data' | 'clock'>, catalog: ProductCatalog, request: TrialRequest): Promise<{ sent: true }> {
  const product = await productOfPublicKey(catalog, request.publicKey);
  const plan = await planOnSale(deps, product.productId, { slug: request.plan });
  if (!plan.trialDays) throw new BadRequestError(NO_TRIAL);
  const email = normalizeEmail(request.email);
  const claimed = claimAddress(email);
  const portalUrl = await portalLinkOf(deps, product.tenantId, request.publicKey, request.baseUrl);
  const [{ data: claim }, { data: provider }, { data: productItem }] = await Promise.all([
    deps.data.entities.trialClaim.get({ productId: product.productId, email: claimed }).go({ consistent: true }),
    deps.data.entities.paymentProvider.get({ tenantId: product.tenantId }).go(),
    deps.data.entities.product.get({ productId: product.productId }).go(),
  ]);
  if (claim) throw new ConflictError(TRIAL_TAKEN);
  const { tenantId, productId } = product;
  const summary = { id: productId, name: productItem?.name ?? '', slug: productItem?.slug ?? '' };
  const composer = productItem ? await composerInstallOf(deps, productItem, request.baseUrl) : undefined;
  const licenseId = newId('lic');
  for (let round = 0; round < ROUNDS; round++) {
    const now = deps.clock.now();
    const endsAt = new Date(now.getTime() + plan.trialDays * DAY_MS).toISOString();
    const link = await resolveCustomerLink(deps, tenantId, email, undefined, now);
    const license: LicenseItem = {
      licenseKey: generateLicenseKey(productItem?.licensePrefix ?? ''),
      licenseId,
      tenantId,
      productId,
      planId: plan.planId,
      customerId: link.customerId,
      customerEmail: email,
      status: 'active',
      seats: plan.siteLimit,
      ...(plan.channel && { channel: plan.channel }),
      features: grantedFeatures(productItem ?? {}, plan.features),
      activatedCount: 0,
      expiresAt: endsAt,
      trialEndsAt: endsAt,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
    const outcome = await transact(deps.data, (tx) => ({
      trial: tx.trialClaim.create({ productId, email: claimed, tenantId, licenseId, planId: plan.planId, startedAt: now.toISOString() }).commit(),
      license: tx.license.create(license).commit(),
      ref: tx.licenseRef.create({ licenseId, licenseKey: license.licenseKey, tenantId }).commit(),
      counters: counterUpdates(tx.counter, tenantId, counterNames.licenses(productId, 'active'), 1),
      event: outboxEvent(tx, { tenantId, type: 'license.created', data: toLicense(license, summary, now), now }),
      expiry: expiryItemChanges(tx, license, undefined, license),
      customer: customerLinkItems(tx, link, now),
      mail: licenseMailItem(tx, { license, productName: summary.name, renews: false, seller: { name: provider?.sellerName, replyTo: provider?.replyTo }, composer, portalUrl }, now),
    }));
    if (outcome.committed) return { sent: true };
    if (outcome.refused('trial')) throw new ConflictError(TRIAL_TAKEN);
    // A drawn key taken, or a customer created or deleted meanwhile: read again.
    if (!outcome.refused('license') && !outcome.refused('customer')) throw outcome.unexpected();
  }
  throw new ConflictError('The trial could not be started because of concurrent changes; retry');
}
