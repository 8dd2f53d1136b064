import type { TransactionEntities } from '../../platform/data/index.js';
import { outboxEvent } from '../../messaging/index.js';
import { expiryItemChanges, indexFields, type LicenseItem, licenseStatusMoves, type ProductSummary, toLicense } from '../../licensing/index.js';
import type { Deps } from '../../platform/index.js';
import { claimAddress } from './claim-address.js';

type ContinuationTx = Pick<TransactionEntities, 'license' | 'licenseExpiry' | 'licenseReminder' | 'counter' | 'trialClaim' | 'outboxEvent' | 'outboxPending'>;

/** A no-card trial a purchase may continue: its license (same key), and the address its claim is held by. */
export type OpenTrial = { license: LicenseItem; claimedBy: string };

/**
 * The no-card trial of this e-mail for this product that a paid checkout continues (DECISIONS §15), if any: its claim
 * is unconverted and its license exists, is not revoked, and is still the payer's (not transferred to another address
 * since). Anything else, and the purchase issues a license of its own (DECISIONS §20: a paid checkout always ends
 * with one license issued or extended for the payer). Read strongly consistent: the purchase's transaction conditions
 * on both.
 */
export async function openTrial(deps: Pick<Deps, 'data'>, productId: string, email: string): Promise<OpenTrial | undefined> {
  const claimedBy = claimAddress(email);
  const { data: claim } = await deps.data.entities.trialClaim.get({ productId, email: claimedBy }).go({ consistent: true });
  if (!claim || claim.convertedAt) return undefined;
  const { data: ref } = await deps.data.entities.licenseRef.get({ licenseId: claim.licenseId }).go({ consistent: true });
  if (!ref || ref.deletedAt) return undefined;
  const { data: license } = await deps.data.entities.license.get({ licenseKey: ref.licenseKey }).go({ consistent: true });
  const payers = license && license.licenseId === claim.licenseId && license.status !== 'revoked' && claimAddress(license.customerEmail) === claimedBy;
  return payers ? { license, claimedBy } : undefined;
}

/**
 * The purchase's license items when it continues a trial: the trial's license becomes the paid one (plan, seats,
 * customer, expiry, `active`), on the condition it is as read (its owner's e-mail included); its counters and expiry
 * item follow; the claim is marked converted (only once); `license.updated` says so.
 */
export function continuedTrialItems(tx: ContinuationTx, trial: OpenTrial, next: LicenseItem, product: ProductSummary, now: Date) {
  const current = trial.license;
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
        .where(({ licenseId, status, customerEmail, expiresAt: at }, op) =>
          [
            op.eq(licenseId, current.licenseId),
            op.eq(status, current.status),
            op.eq(customerEmail, current.customerEmail),
            current.expiresAt ? op.eq(at, current.expiresAt) : op.notExists(at),
          ].join(' AND '),
        )
        .commit(),
      ...licenseStatusMoves(tx.counter, current.tenantId, current.productId, current.status, next.status),
      ...expiryItemChanges(tx, { licenseId: current.licenseId, tenantId: current.tenantId, productId: current.productId }, current, next),
      ...outboxEvent(tx, { tenantId: current.tenantId, type: 'license.updated', data: toLicense(next, product, now), now }),
    ],
    trial: tx.trialClaim
      .patch({ productId: current.productId, email: trial.claimedBy })
      .set({ convertedAt: now.toISOString() })
      .where(({ convertedAt }, { notExists }) => notExists(convertedAt))
      .commit(),
  };
}
