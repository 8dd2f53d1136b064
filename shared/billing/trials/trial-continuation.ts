import type { TransactionEntities } from '../../platform/data/index.js';
import { outboxEvent } from '../../messaging/index.js';
import { expiryItemChanges, indexFields, type LicenseItem, licenseStatusMoves, type ProductSummary, toLicense } from '../../licensing/index.js';
import type { Deps } from '../../platform/index.js';

type ContinuationTx = Pick<TransactionEntities, 'license' | 'licenseExpiry' | 'licenseReminder' | 'counter' | 'trialClaim' | 'outboxEvent' | 'outboxPending'>;

/** A no-card trial a purchase may continue: its claim not yet converted, and its license (same key) still there. */
export type OpenTrial = { license: LicenseItem };

/**
 * The no-card trial of this e-mail for this product that a paid checkout continues (DECISIONS §15), if any: its claim
 * is unconverted and its license exists and is not revoked. Read strongly consistent: the purchase's transaction
 * conditions on both.
 */
export async function openTrial(deps: Pick<Deps, 'data'>, productId: string, email: string): Promise<OpenTrial | undefined> {
  const { data: claim } = await deps.data.entities.trialClaim.get({ productId, email }).go({ consistent: true });
  if (!claim || claim.convertedAt) return undefined;
  const { data: ref } = await deps.data.entities.licenseRef.get({ licenseId: claim.licenseId }).go({ consistent: true });
  if (!ref || ref.deletedAt) return undefined;
  const { data: license } = await deps.data.entities.license.get({ licenseKey: ref.licenseKey }).go({ consistent: true });
  return license && license.licenseId === claim.licenseId && license.status !== 'revoked' ? { license } : undefined;
}

/**
 * The purchase's license items when it continues a trial: the trial's license becomes the paid one (plan, seats,
 * customer, expiry, `active`), on the condition it is as read; its counters and expiry item follow; the claim is
 * marked converted (only once); `license.updated` says so.
 */
export function continuedTrialItems(tx: ContinuationTx, current: LicenseItem, next: LicenseItem, product: ProductSummary, now: Date) {
  const { planId, customerId, customerName, seats, channel, expiresAt, updatedAt } = next;
  return {
    license: [
      tx.license
        .patch({ licenseKey: current.licenseKey })
        .set({
          ...indexFields(next),
          seats,
          updatedAt,
          ...(planId && { planId }),
          ...(customerId && { customerId }),
          ...(customerName && { customerName }),
          ...(channel && { channel }),
          ...(expiresAt && { expiresAt }),
        })
        .remove(expiresAt ? [] : ['expiresAt'])
        .where(({ licenseId, status, expiresAt: at }, op) =>
          [op.eq(licenseId, current.licenseId), op.eq(status, current.status), current.expiresAt ? op.eq(at, current.expiresAt) : op.notExists(at)].join(' AND '),
        )
        .commit(),
      ...licenseStatusMoves(tx.counter, current.tenantId, current.productId, current.status, next.status),
      ...expiryItemChanges(tx, { licenseId: current.licenseId, tenantId: current.tenantId, productId: current.productId }, current, next),
      ...outboxEvent(tx, { tenantId: current.tenantId, type: 'license.updated', data: toLicense(next, product), now }),
    ],
    trial: tx.trialClaim
      .patch({ productId: current.productId, email: current.customerEmail })
      .set({ convertedAt: now.toISOString() })
      .where(({ convertedAt }, { notExists }) => notExists(convertedAt))
      .commit(),
  };
}
