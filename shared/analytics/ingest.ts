import { transact, writeItem } from '../data/writes.js';
import type { FEEDBACK_TYPES } from '../data/entities/feedback.js';
import { NotFoundError } from '../errors.js';
import { hasPublicKeyShape, newId } from '../ids.js';
import { looksLikeLicenseKey } from '../licenses/license-key.js';
import { readLicense } from '../licensing/license-lookup.js';
import { LICENSE_MESSAGES } from '../licensing/messages.js';
import type { ProductCatalog, ProductRef } from '../licensing/product-catalog.js';
import type { Deps } from '../runtime.js';
import { bumpDailyCount, dailyCountItem } from './daily-counts.js';
import { dayOf } from './days.js';

export type IngestDeps = Pick<Deps, 'data' | 'clock' | 'config'> & { catalog: ProductCatalog };

/** What an installed product may add to any record: the license and the site it runs on. */
type Origin = { publicKey: string; licenseKey?: string; domain?: string };

export type FeedbackInput = Origin & { type: (typeof FEEDBACK_TYPES)[number]; message: string; email?: string; metadata?: Record<string, unknown> };
export type UsageEventInput = Origin & { event: string; properties?: Record<string, unknown> };
export type DeactivationReasonInput = Origin & { reason: string; details?: string };

/**
 * The product of the `public_key`, and the license when the key given is one of that product's: read together.
 * A key of another product, or none at all, is left out rather than refused, so a caller learns nothing of keys.
 */
async function originOf(deps: IngestDeps, input: Origin): Promise<{ product: ProductRef; license?: { licenseId: string; licenseKey: string } }> {
  if (!hasPublicKeyShape(input.publicKey)) throw new NotFoundError(LICENSE_MESSAGES.invalidPublicKey);
  const licenseKey = input.licenseKey !== undefined && looksLikeLicenseKey(input.licenseKey) ? input.licenseKey : undefined;
  const [product, license] = await Promise.all([
    deps.catalog.byPublicKey(input.publicKey),
    licenseKey === undefined ? undefined : readLicense(deps, licenseKey),
  ]);
  if (!product || product.deleted) throw new NotFoundError(LICENSE_MESSAGES.invalidPublicKey);
  const ours = license && license.productId === product.productId ? { licenseId: license.licenseId, licenseKey: license.licenseKey } : undefined;
  return { product, license: ours };
}

/** Raw records expire after the configured retention (the table's TTL removes them); their daily counts stay. */
function expiry(deps: IngestDeps, now: Date): number {
  return Math.floor(now.getTime() / 1000) + deps.config.analytics.retentionDays * 86_400;
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
 * A usage event: the event and its daily count, two plain writes sent at once (a transaction would cost twice
 * the write units, at the volume of validations). A failure of either answers 503 and the plugin sends again;
 * at worst a count is one off, never an event lost without an error.
 */
export async function trackEvent(deps: IngestDeps, input: UsageEventInput): Promise<void> {
  const { product, license } = await originOf(deps, input);
  const now = deps.clock.now();
  const day = dayOf(now);
  const { productId } = product;
  await Promise.all([
    writeItem(() =>
      deps.data.entities.usageEvent
        .put({
          productId, day, eventId: newId('uev'), event: input.event, properties: input.properties, domain: input.domain, ...license,
          createdAt: now.toISOString(), ttl: expiry(deps, now),
        })
        .go({ response: 'none' }),
    ),
    bumpDailyCount(deps, { productId, day, metric: 'event', name: input.event }),
  ]);
}
