import { type FEEDBACK_TYPES, transact } from '../../platform/data/index.js';
import { type Deps, hasPublicKeyShape, newId, NotFoundError } from '../../platform/index.js';
import { couldBeLicenseKey } from '../licenses/license-key.js';
import { readLicense } from './license-lookup.js';
import { LICENSE_MESSAGES } from './messages.js';
import type { ProductCatalog, ProductRef } from './product-catalog.js';
import { dailyCountItem, dayOf, expiry, ownLicense, type UsageQueue } from '../../insights/index.js';

export type IngestDeps = Pick<Deps, 'data' | 'clock' | 'config'> & { catalog: ProductCatalog };

/** What an installed product may add to any record: the license and the site it runs on. */
type Origin = { publicKey: string; licenseKey?: string; domain?: string };

export type FeedbackInput = Origin & { type: (typeof FEEDBACK_TYPES)[number]; message: string; email?: string; metadata?: Record<string, unknown> };
export type UsageEventInput = Origin & { event: string; properties?: Record<string, unknown> };
export type DeactivationReasonInput = Origin & { reason: string; details?: string };

/** The product of the `public_key`: 404 `Invalid public_key` when there is none (or it is deleted). */
async function productOf(deps: IngestDeps, publicKey: string): Promise<ProductRef> {
  const product = hasPublicKeyShape(publicKey) ? await deps.catalog.byPublicKey(publicKey) : undefined;
  if (!product || product.deleted) throw new NotFoundError(LICENSE_MESSAGES.invalidPublicKey);
  return product;
}

/** The key given, when it could be a license key at all: anything else is dropped before a read or a message. */
const licenseKeyOf = (input: Origin) => (input.licenseKey !== undefined && couldBeLicenseKey(input.licenseKey) ? input.licenseKey : undefined);

/**
 * The product of the `public_key`, and the license when the key given is one of that product's: read together.
 * A key of another product, or none at all, is left out rather than refused, so a caller learns nothing of keys.
 */
async function originOf(deps: IngestDeps, input: Origin): Promise<{ product: ProductRef; license?: { licenseId: string; licenseKey: string } }> {
  const licenseKey = licenseKeyOf(input);
  const [product, license] = await Promise.all([productOf(deps, input.publicKey), licenseKey === undefined ? undefined : readLicense(deps, licenseKey)]);
  return { product, license: license && ownLicense(license, product.productId) };
}

/** Feedback and its daily count by type, in one transaction: the inbox and its totals always agree. */
export async function submitFeedback(deps: IngestDeps, input: FeedbackInput): Promise<{ id: string }> {
  const { product, license } = await originOf(deps, input);
  const now = deps.clock.now();
  const feedbackId = newId('fbk');
  const { productId } = product;
  const outcome = await transact(deps.data, (tx) => ({
    feedback: tx.feedback
      .create({
        productId, feedbackId, type: input.type, message: input.message, email: input.email, domain: input.domain, metadata: input.metadata,
        ...license, createdAt: now.toISOString(), ttl: expiry(deps, now),
      })
      .commit(),
    count: dailyCountItem(tx.productDaily, { productId, day: dayOf(now), metric: 'feedback', name: input.type }),
  }));
  if (!outcome.committed) throw outcome.unexpected();
  return { id: feedbackId };
}

/** A deactivation reason and its daily count, in one transaction. */
export async function recordDeactivationReason(deps: IngestDeps, input: DeactivationReasonInput): Promise<{ id: string }> {
  const { product, license } = await originOf(deps, input);
  const now = deps.clock.now();
  const reasonId = newId('drs');
  const { productId } = product;
  const outcome = await transact(deps.data, (tx) => ({
    reason: tx.deactivationReason
      .create({ productId, reasonId, reason: input.reason, details: input.details, domain: input.domain, ...license, createdAt: now.toISOString(), ttl: expiry(deps, now) })
      .commit(),
    count: dailyCountItem(tx.productDaily, { productId, day: dayOf(now), metric: 'reason', name: input.reason }),
  }));
  if (!outcome.committed) throw outcome.unexpected();
  return { id: reasonId };
}

/**
 * A usage event: the product is checked here (an unknown public key is 404 at once), then the event goes to the
 * usage queue and the caller gets 202. The writer stores and counts it within seconds, in batches
 * (shared/insights/analytics/usage-writer.ts), and checks there that a `license_key` is the product's: nothing but the
 * public key is read while the caller waits.
 */
export async function trackEvent(deps: IngestDeps & { usage: UsageQueue }, input: UsageEventInput): Promise<void> {
  const { productId } = await productOf(deps, input.publicKey);
  await deps.usage.send({
    kind: 'event', eventId: newId('uev'), productId, event: input.event, properties: input.properties, licenseKey: licenseKeyOf(input), domain: input.domain,
    receivedAt: deps.clock.now().toISOString(),
  });
}
