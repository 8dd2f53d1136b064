import { BadRequestError, ConflictError, type Deps, newId, NotFoundError, ServiceUnavailableError } from '../../platform/index.js';
import { transact, type TransactionEntities } from '../../platform/data/index.js';
import { outboxEvent } from '../../messaging/index.js';
import type { LicenseItem } from '../licenses/license-view.js';
import { loadLicense } from '../licenses/load-license.js';
import { seatLimit } from '../licenses/license-rules.js';
import { assertUsable } from '../operations/license-state.js';
import { resolveLicense, type LicenseClaim } from '../operations/license-lookup.js';
import { LICENSE_MESSAGES } from '../operations/messages.js';
import type { ProductCatalog } from '../operations/product-catalog.js';
import { noticePoolFull } from './pool-fill.js';
import { DEFAULT_LEASE_SECONDS, leaseShard, poolItemTtl, slotOrder, toLease, type LeaseItem, type LeaseSlotItem } from './lease-view.js';

type LeaseDeps = Pick<Deps, 'data' | 'clock'>;
export type LeaseAnswer = { leaseId: string; expiresAt: string; created: boolean };

/** Rounds of "another request took the slot we chose": each reads the pool again. Each round, some request wins. */
const MAX_ROUNDS = 12;

const leaseEnd = (license: LicenseItem, now: Date) => new Date(now.getTime() + (license.leaseSeconds ?? DEFAULT_LEASE_SECONDS) * 1000);

/** The license named by the claim, usable and floating. */
async function floatingLicense(deps: LeaseDeps, catalog: ProductCatalog, claim: LicenseClaim): Promise<LicenseItem> {
  const { license } = await resolveLicense(deps, catalog, claim);
  assertUsable(license, deps.clock.now());
  if (!license.floating) throw new BadRequestError(LICENSE_MESSAGES.notFloating);
  return license;
}

/** The pool's slots as they are now (one strongly consistent Query of the license's pool partition). */
async function readSlots(deps: LeaseDeps, licenseId: string): Promise<LeaseSlotItem[]> {
  const { data } = await deps.data.entities.leaseSlot.query.bySlot({ licenseId }).go({ consistent: true, pages: 'all' });
  return data;
}

/**
 * Takes a seat of a floating license for a machine (DECISIONS §18), or renews the live lease the machine already
 * holds. Reads the pool, then takes the first slot free now in the machine's hashed order with one transaction:
 * the slot (absent or expired), the machine's hold (it holds no live lease), the lease item, a check that the
 * license is still active, floating and has that many seats, and `lease.created`. A slot taken by another request
 * meanwhile refuses the transaction and the pool is read again. No free slot in range: 409, and the full pool is
 * told once (`license.seats_exhausted`).
 */
export async function createLease(deps: LeaseDeps, catalog: ProductCatalog, input: LicenseClaim & { machine: string }): Promise<LeaseAnswer> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const license = await floatingLicense(deps, catalog, input);
    const slots = await readSlots(deps, license.licenseId);
    const now = deps.clock.now();
    const nowIso = now.toISOString();
    const live = slots.filter((slot) => slot.slot < license.seats && slot.expiresAt > nowIso);
    const mine = live.find((slot) => slot.machine === input.machine);
    if (mine) {
      const renewed = await extend(deps, license, { leaseId: mine.leaseId, slot: mine.slot, machine: mine.machine }, now);
      if (renewed) return { leaseId: mine.leaseId, expiresAt: renewed, created: false };
      continue; // it expired or was released meanwhile: take a slot afresh
    }
    const held = new Set(live.map((slot) => slot.slot));
    // A new lease takes a slot below the seat limit (fewer slots while a downgrade is pending: DECISIONS §20); leases
    // held above it live on until they end.
    const limit = seatLimit(license);
    const free = slotOrder(input.machine, limit).find((slot) => !held.has(slot));
    if (free === undefined) {
      await noticePoolFull(deps, license, live.map((slot) => slot.leaseId));
      throw new ConflictError(LICENSE_MESSAGES.seatsInUse);
    }
    const expiresAt = leaseEnd(license, now);
    const lease: LeaseItem = {
      leaseId: newId('lse'),
      licenseId: license.licenseId,
      tenantId: license.tenantId,
      productId: license.productId,
      machine: input.machine,
      slot: free,
      createdAt: nowIso,
      expiresAt: expiresAt.toISOString(),
      ttl: poolItemTtl(expiresAt),
      leaseShard: '',
    };
    lease.leaseShard = leaseShard(lease.leaseId);
    const outcome = await transact(deps.data, (tx) => leaseCreationWrites(tx, license, lease, now));
    if (outcome.committed) {
      if (live.filter((slot) => slot.slot < limit).length + 1 >= limit) await noticePoolFull(deps, license, [...live.map((slot) => slot.leaseId), lease.leaseId]);
      return { leaseId: lease.leaseId, expiresAt: lease.expiresAt, created: true };
    }
    if (outcome.refused('slot') || outcome.refused('hold') || outcome.refused('license')) continue;
    throw outcome.unexpected();
  }
  throw new ServiceUnavailableError();
}

/** The items of a new lease (also what bench/leases.ts sends raw as its floor). */
export function leaseCreationWrites(tx: TransactionEntities, license: LicenseItem, lease: LeaseItem, now: Date) {
  const nowIso = now.toISOString();
  const { licenseId, machine, leaseId, slot, expiresAt, ttl } = lease;
  // Each only if free now: absent, or held by a lease that has expired.
  return {
    slot: tx.leaseSlot
      .put({ licenseId, slot, leaseId, machine, expiresAt, ttl })
      .where((item, { notExists, lte }) => `${notExists(item.expiresAt)} OR ${lte(item.expiresAt, nowIso)}`)
      .commit(),
    hold: tx.leaseHold
      .put({ licenseId, machine, leaseId, slot, expiresAt, ttl })
      .where((item, { notExists, lte }) => `${notExists(item.expiresAt)} OR ${lte(item.expiresAt, nowIso)}`)
      .commit(),
    lease: tx.lease.create(lease).commit(),
    license: tx.license
      .check({ licenseKey: license.licenseKey })
      .where(({ licenseId: id, status, floating, seats, pendingSeats }, { eq, gt, notExists }) =>
        `${eq(id, licenseId)} AND ${eq(status, 'active')} AND ${eq(floating, true)} AND ${gt(seats, slot)} AND (${notExists(pendingSeats)} OR ${gt(pendingSeats, slot)})`,
      )
      .commit(),
    event: outboxEvent(tx, { tenantId: license.tenantId, type: 'lease.created', data: toLease(lease), now }),
  };
}

type LeaseRef = { leaseId: string; slot: number; machine: string };

/**
 * Moves a live lease's end to a full lease time from now: its slot, its machine's hold and its item, each on the
 * condition that the lease still holds it and has not expired. Returns the new end, or undefined when it had.
 */
async function extend(deps: LeaseDeps, license: LicenseItem, lease: LeaseRef, now: Date): Promise<string | undefined> {
  const nowIso = now.toISOString();
  const until = leaseEnd(license, now);
  const expiresAt = until.toISOString();
  const ttl = poolItemTtl(until);
  const { licenseId } = license;
  const { leaseId } = lease;
  const outcome = await transact(deps.data, (tx) => ({
    slot: tx.leaseSlot
      .patch({ licenseId, slot: lease.slot })
      .set({ expiresAt, ttl })
      .where((item, { eq, gt }) => `${eq(item.leaseId, leaseId)} AND ${gt(item.expiresAt, nowIso)}`)
      .commit(),
    hold: tx.leaseHold
      .patch({ licenseId, machine: lease.machine })
      .set({ expiresAt, ttl })
      .where((item, { eq }) => eq(item.leaseId, leaseId))
      .commit(),
    // With every composite of the expiry index, so ElectroDB rebuilds its key.
    lease: tx.lease
      .patch({ leaseId })
      .set({ expiresAt, ttl, leaseShard: leaseShard(leaseId) })
      .where((item, { gt }) => gt(item.expiresAt, nowIso))
      .commit(),
  }));
  if (outcome.committed) return expiresAt;
  if (outcome.refused('slot') || outcome.refused('hold') || outcome.refused('lease')) return undefined;
  throw outcome.unexpected();
}

/** The live lease `leaseId` of the claimed license; 404 when it is unknown, another license's, or expired. */
async function liveLease(deps: LeaseDeps, catalog: ProductCatalog, claim: LicenseClaim, leaseId: string) {
  const [resolved, { data: lease }] = await Promise.all([
    resolveLicense(deps, catalog, claim),
    deps.data.entities.lease.get({ leaseId }).go({ consistent: true }),
  ]);
  const { license } = resolved;
  if (!lease || lease.licenseId !== license.licenseId || lease.expiresAt <= deps.clock.now().toISOString()) {
    throw new NotFoundError(LICENSE_MESSAGES.leaseNotFound);
  }
  return { license, lease };
}

/** Extends a live lease (DECISIONS §18): 404 once it has expired or was released. */
export async function heartbeatLease(deps: LeaseDeps, catalog: ProductCatalog, input: LicenseClaim & { leaseId: string }): Promise<{ expiresAt: string }> {
  const { license, lease } = await liveLease(deps, catalog, input, input.leaseId);
  assertUsable(license, deps.clock.now());
  const expiresAt = await extend(deps, license, lease, deps.clock.now());
  if (!expiresAt) throw new NotFoundError(LICENSE_MESSAGES.leaseNotFound);
  return { expiresAt };
}

/**
 * Returns a live lease's seat at once: its slot, its machine's hold and its item go, conditioned on the lease still
 * holding them, with `lease.released`. Allowed whatever the license's state, as deactivation is.
 */
export async function releaseLease(deps: LeaseDeps, catalog: ProductCatalog, input: LicenseClaim & { leaseId: string }): Promise<void> {
  const { lease } = await liveLease(deps, catalog, input, input.leaseId);
  if (!(await release(deps, lease))) throw new NotFoundError(LICENSE_MESSAGES.leaseNotFound);
}

/**
 * Ends a live lease: its slot, its machine's hold and its item go, conditioned on the lease still holding them and not
 * having expired, with `lease.released`. False when it had ended meanwhile.
 */
async function release(deps: LeaseDeps, lease: LeaseItem): Promise<boolean> {
  const now = deps.clock.now();
  const nowIso = now.toISOString();
  const { licenseId, leaseId } = lease;
  const outcome = await transact(deps.data, (tx) => ({
    slot: tx.leaseSlot.delete({ licenseId, slot: lease.slot }).where((item, { eq }) => eq(item.leaseId, leaseId)).commit(),
    hold: tx.leaseHold.delete({ licenseId, machine: lease.machine }).where((item, { eq }) => eq(item.leaseId, leaseId)).commit(),
    lease: tx.lease.delete({ leaseId }).where((item, { gt }) => gt(item.expiresAt, nowIso)).commit(),
    event: outboxEvent(tx, { tenantId: lease.tenantId, type: 'lease.released', data: { ...toLease(lease), releasedAt: nowIso }, now }),
  }));
  if (outcome.committed) return true;
  if (outcome.refused('slot') || outcome.refused('hold') || outcome.refused('lease')) return false;
  throw outcome.unexpected();
}

/**
 * Ends every live lease of a license at once, each as its release would (DECISIONS §20: a transfer that does not keep
 * the sites frees the seats the old owner's machines held). A lease that ends meanwhile is left as it ended.
 */
export async function endLeases(deps: LeaseDeps, licenseId: string): Promise<void> {
  const nowIso = deps.clock.now().toISOString();
  const live = (await readSlots(deps, licenseId)).filter((slot) => slot.expiresAt > nowIso);
  await Promise.all(
    live.map(async (slot) => {
      const { data: lease } = await deps.data.entities.lease.get({ leaseId: slot.leaseId }).go({ consistent: true });
      if (lease) await release(deps, lease);
    }),
  );
}

/** The machine's live lease on a floating license, if any: one strongly consistent GetItem of its hold (validate). */
export async function machineLease(deps: LeaseDeps, licenseId: string, machine: string): Promise<{ leaseId: string; expiresAt: string } | undefined> {
  const hold = await deps.data.reads.leaseHold.get({ licenseId, machine }, { consistent: true });
  return hold && hold.expiresAt > deps.clock.now().toISOString() ? { leaseId: hold.leaseId, expiresAt: hold.expiresAt } : undefined;
}

/** A tenant's license's live leases, by slot (management views): the pool's slots, read whole. */
export async function liveLeases(deps: LeaseDeps, tenantId: string, licenseId: string) {
  const license = await loadLicense(deps, tenantId, licenseId);
  const nowIso = deps.clock.now().toISOString();
  const slots = await readSlots(deps, license.licenseId);
  return slots
    .filter((slot) => slot.slot < license.seats && slot.expiresAt > nowIso)
    .map((slot) => ({ id: slot.leaseId, machine: slot.machine, slot: slot.slot, expiresAt: slot.expiresAt }));
}
