import { customerLinkItems, normalizeEmail, resolveCustomerLink } from '../../customers/index.js';
import { counterNames, counterUpdates, type EntityItem, transact } from '../../platform/data/index.js';
import { ConflictError, newId, NotFoundError } from '../../platform/index.js';
import { licenseCreatedChanges, overviewCountItems } from '../../insights/index.js';
import { outboxEvent } from '../../messaging/index.js';
import { type Channel, checkFeatureKeys, DEFAULT_CHANNEL, grantedFeatures, loadLiveProduct } from '../../catalog/index.js';
import { expiryItemChanges } from './expiry-items.js';
import { generateLicenseKey } from './license-key.js';
import { toLicense, type License, type LicenseItem } from './license-view.js';
import type { LicenseDeps } from './load-license.js';

export type LicenseInput = {
  productId: string;
  planId?: string | null;
  customerEmail: string;
  customerName?: string | null;
  seats?: number;
  /** ISO timestamp; null or absent: lifetime. */
  expiresAt?: string | null;
  /** Absent: the plan's, else `stable`. */
  channel?: Channel;
  /** Seats borrowed by leases (DECISIONS §18); absent: false. */
  floating?: boolean;
  leaseSeconds?: number;
  /** Keys of the product's features; absent: the plan's (DECISIONS §23), else none. */
  features?: string[];
};

/** Key collisions and customers created or deleted meanwhile are retried; this bounds the rounds. */
const CREATE_ROUNDS = 5;

/** What a license takes from its plan: seats, release channel and features. */
async function planDefaults(deps: LicenseDeps, product: EntityItem<'product'>, tenantId: string, planId: string) {
  const { productId } = product;
  const { data: plan } = await deps.data.entities.plan.get({ planId }).go();
  // A plan of another product or tenant is as unknown as a missing one.
  if (!plan || plan.tenantId !== tenantId || plan.productId !== productId) throw new NotFoundError('Plan not found');
  return { seats: plan.siteLimit, channel: plan.channel, features: grantedFeatures(product, plan.features) };
}

/**
 * Issues a license: the license (keyed by its new key, which must be free), its id ref, the list
 * counters, the `license.created` event, the expiry item and the customer link commit together.
 */
export async function createLicense(deps: LicenseDeps, tenantId: string, input: LicenseInput): Promise<License> {
  const product = await loadLiveProduct(deps, tenantId, input.productId);
  const fromPlan = input.planId ? await planDefaults(deps, product, tenantId, input.planId) : undefined;
  const features = input.features ? checkFeatureKeys(product, input.features) : (fromPlan?.features ?? []);
  const customerEmail = normalizeEmail(input.customerEmail);
  const customerName = input.customerName ?? undefined;
  const summary = { id: product.productId, name: product.name, slug: product.slug };
  const licenseId = newId('lic');

  for (let round = 0; round < CREATE_ROUNDS; round++) {
    const now = deps.clock.now();
    const link = await resolveCustomerLink(deps, tenantId, customerEmail, customerName, now);
    const item: LicenseItem = {
      licenseKey: generateLicenseKey(product.licensePrefix),
      licenseId,
      tenantId,
      productId: product.productId,
      planId: input.planId ?? undefined,
      customerId: link.customerId,
      customerEmail,
      customerName,
      status: 'active',
      seats: input.seats ?? fromPlan?.seats ?? 1,
      channel: input.channel ?? fromPlan?.channel ?? DEFAULT_CHANNEL,
      activatedCount: 0,
      ...(input.floating ? { floating: true } : {}),
      ...(input.leaseSeconds !== undefined ? { leaseSeconds: input.leaseSeconds } : {}),
      ...(features.length > 0 && { features }),
      expiresAt: input.expiresAt ? new Date(input.expiresAt).toISOString() : undefined,
      createdAt: now.toISOString(),
      updatedAt: now.toISOString(),
    };
    const license = toLicense(item, summary, now);
    const outcome = await transact(deps.data, (tx) => ({
      // Only if the drawn key is free.
      license: tx.license.create(item).commit(),
      ref: tx.licenseRef.create({ licenseId, licenseKey: item.licenseKey, tenantId }).commit(),
      product: tx.product
        .check({ productId: product.productId })
        .where(({ deletedAt }, { notExists }) => notExists(deletedAt))
        .commit(),
      counters: counterUpdates(tx.counter, tenantId, counterNames.licenses(item.productId, item.status), 1),
      event: outboxEvent(tx, { tenantId, type: 'license.created', data: license, now }),
      expiry: expiryItemChanges(tx, item, undefined, item),
      overview: overviewCountItems(tx, item, licenseCreatedChanges(item)),
      // The e-mail still names the customer read, or is still free for the one created.
      customer: customerLinkItems(tx, link, now),
    }));
    if (outcome.committed) return license;
    if (outcome.refused('product')) throw new NotFoundError('Product not found');
    if (!outcome.refused('license') && !outcome.refused('customer')) throw outcome.unexpected();
  }
  throw new ConflictError('License could not be created because of concurrent changes; retry');
}
