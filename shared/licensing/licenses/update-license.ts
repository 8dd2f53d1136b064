import { type CustomerLink, customerLinkItems, normalizeEmail, resolveCustomerLink } from '../../customers/index.js';
import { transact } from '../../platform/data/index.js';
import { BadRequestError, ConflictError } from '../../platform/index.js';
import { expiryItemChanges } from './expiry-items.js';
import { indexFields } from './index-fields.js';
import { licenseStatusMoves } from './license-counters.js';
import { type Channel, checkFeatureKeys, loadProduct } from '../../catalog/index.js';
import { toLicense, type License, type LicenseItem } from './license-view.js';
import type { LicenseStatus } from './list-licenses.js';
import { loadLicense, productSummary, type LicenseDeps } from './load-license.js';

export type LicenseChanges = {
  customerEmail?: string;
  customerName?: string | null;
  status?: LicenseStatus;
  seats?: number;
  /** null clears it (lifetime). */
  expiresAt?: string | null;
  channel?: Channel;
  floating?: boolean;
  leaseSeconds?: number;
  /** Keys of the product's features (DECISIONS §23): replaces the license's. */
  features?: string[];
};

/** Rounds of "changed between our read and our write" before answering 409. */
const UPDATE_ROUNDS = 5;

const seatsBelowActivations = (activatedCount: number) =>
  new BadRequestError(`seats cannot be below the license's ${activatedCount} active activations`);

/** A license made floating lends its seats to leases: activations must not hold them (DECISIONS §18, docs/api.md). */
const activationsHeld = () => new BadRequestError('Deactivate the license\'s activations before making it floating');

/** The license after the changes; `undefined` in a change means "keep", `null` means "clear". */
function applyChanges(current: LicenseItem, changes: LicenseChanges, link: CustomerLink | undefined, now: string): LicenseItem {
  const keepOr = <T>(change: T | null | undefined, kept: T | undefined) => (change === undefined ? kept : (change ?? undefined));
  return {
    ...current,
    customerEmail: link?.email ?? current.customerEmail,
    customerId: link?.customerId ?? current.customerId,
    customerName: keepOr(changes.customerName, current.customerName),
    status: changes.status ?? current.status,
    seats: changes.seats ?? current.seats,
    channel: changes.channel ?? current.channel,
    floating: changes.floating ?? current.floating,
    leaseSeconds: changes.leaseSeconds ?? current.leaseSeconds,
    features: changes.features ?? current.features,
    expiresAt: keepOr(changes.expiresAt && new Date(changes.expiresAt).toISOString(), current.expiresAt),
    updatedAt: now,
  };
}

/**
 * A partial update in one transaction, conditioned on what it was computed from: the status (the
 * counters move from it), the expiry (its item moves), the e-mail (the customer link) and, for seats,
 * the live activation count, so a concurrent activation can never leave more activations than seats.
 */
export async function updateLicense(deps: LicenseDeps, tenantId: string, licenseId: string, changes: LicenseChanges): Promise<License> {
  for (let round = 0; round < UPDATE_ROUNDS; round++) {
    const current = await loadLicense(deps, tenantId, licenseId);
    // Checked against the product as it is now (a deleted product's licenses keep their features editable).
    const features = changes.features && checkFeatureKeys(await loadProduct(deps, tenantId, current.productId), changes.features);
    if (changes.seats !== undefined && changes.seats < current.activatedCount) throw seatsBelowActivations(current.activatedCount);
    if (changes.floating && !current.floating && current.activatedCount > 0) throw activationsHeld();
    const now = deps.clock.now();
    const email = changes.customerEmail === undefined ? current.customerEmail : normalizeEmail(changes.customerEmail);
    const link =
      email === current.customerEmail
        ? undefined
        : await resolveCustomerLink(deps, tenantId, email, changes.customerName ?? current.customerName, now);
    const next = applyChanges(current, { ...changes, features }, link, now.toISOString());
    const { licenseKey, productId, customerId, customerName, status, seats, channel, expiresAt, updatedAt, floating, leaseSeconds } = next;
    const cleared = [...(customerName === undefined ? ['customerName' as const] : []), ...(expiresAt === undefined ? ['expiresAt' as const] : [])];

    const outcome = await transact(deps.data, (tx) => ({
      license: tx.license
        .patch({ licenseKey })
        .set({ ...indexFields(next), seats, updatedAt, ...(channel && { channel }), ...(floating !== undefined && { floating }), ...(leaseSeconds !== undefined && { leaseSeconds }), ...(features !== undefined && { features }), ...(customerId && { customerId }), ...(customerName !== undefined && { customerName }), ...(expiresAt !== undefined && { expiresAt }) })
        .remove(cleared)
        .where((attr, op) =>
          [
            op.eq(attr.licenseId, licenseId),
            op.eq(attr.status, current.status),
            op.eq(attr.customerEmail, current.customerEmail),
            current.expiresAt ? op.eq(attr.expiresAt, current.expiresAt) : op.notExists(attr.expiresAt),
            ...(changes.seats !== undefined ? [op.lte(attr.activatedCount, changes.seats)] : []),
            // Made floating: no activation may hold a seat, now or by a concurrent activate.
            ...(changes.floating && !current.floating ? [op.eq(attr.activatedCount, 0)] : []),
          ].join(' AND '),
        )
        .commit(),
      counters: current.status !== status && licenseStatusMoves(tx.counter, tenantId, productId, current.status, status),
      expiry: expiryItemChanges(tx, next, current, next),
      customer: link && customerLinkItems(tx, link, now),
    }));
    if (outcome.committed) return toLicense(next, await productSummary(deps, productId), now);
    if (outcome.refused('license') && changes.seats !== undefined) {
      const latest = await loadLicense(deps, tenantId, licenseId);
      if (latest.activatedCount > changes.seats) throw seatsBelowActivations(latest.activatedCount);
    }
    if (outcome.refused('license') && changes.floating && (await loadLicense(deps, tenantId, licenseId)).activatedCount > 0) throw activationsHeld();
    // Otherwise the license, its expiry item or the customer link changed meanwhile: read again.
  }
  throw new ConflictError('License was changed concurrently; retry');
}
