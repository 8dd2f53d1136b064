import { Entity } from 'electrodb';
import { SERVICE_NAME } from '../table-schema.js';
import { globalIndex, model, primaryKey } from '../keys.js';

/**
 * A floating license's pool (DECISIONS §18): a partition of its own per license, `$licensing#leasePool_<licenseId>`,
 * so the functions that lease are given no right to the license's other items (its ref leads with `licenseId`).
 */
function leasePoolKey<const S extends readonly string[]>(sk: S) {
  return {
    pk: { field: 'pk', composite: ['licenseId'] as const, casing: 'none', template: `$${SERVICE_NAME}#leasePool_\${licenseId}` },
    sk: { field: 'sk', composite: sk, casing: 'none' },
  } as const;
}

/**
 * Seat slot `slot` (0 … seats − 1) of a floating license: held by the lease it names until `expiresAt`. Taking it is a
 * conditional put "absent or expired", so at most `seats` leases are live under any concurrency, and an expired
 * lease's slot is free at its expiry time with no sweep. Kept after a lease ends (at most `seats` items per license;
 * `ttl` removes the pools of licenses no longer leased).
 */
export const leaseSlotEntity = () =>
  new Entity({
    model: model('leaseSlot'),
    attributes: {
      licenseId: { type: 'string', required: true },
      slot: { type: 'number', required: true },
      leaseId: { type: 'string', required: true },
      machine: { type: 'string', required: true },
      /** ISO time: compared as text in conditions (fixed-width ISO strings sort as the times do). */
      expiresAt: { type: 'string', required: true },
      ttl: { type: 'number' },
    },
    indexes: { bySlot: leasePoolKey(['slot']) },
  });

/**
 * The machine's lease on a floating license: which lease and slot it holds, until when. Written with the slot, on the
 * condition that the machine holds no live lease, so one machine never takes two seats; read by validate (one GetItem).
 */
export const leaseHoldEntity = () =>
  new Entity({
    model: model('leaseHold'),
    attributes: {
      licenseId: { type: 'string', required: true },
      machine: { type: 'string', required: true },
      leaseId: { type: 'string', required: true },
      slot: { type: 'number', required: true },
      expiresAt: { type: 'string', required: true },
      ttl: { type: 'number' },
    },
    indexes: { byMachine: leasePoolKey(['machine']) },
  });

/**
 * The pool's last fill that `license.seats_exhausted` was sent for: `fillKey` names the live leases that filled it, and
 * the event is written only with a change of this item, so one fill is told once however many requests see it full.
 */
export const leasePoolFillEntity = () =>
  new Entity({
    model: model('leasePoolFill'),
    attributes: {
      licenseId: { type: 'string', required: true },
      fillKey: { type: 'string', required: true },
      filledAt: { type: 'string', required: true },
    },
    indexes: { byPool: leasePoolKey([]) },
  });

/**
 * A lease by its id (heartbeat and release name it). `leaseShard` + `expiresAt` index it for the lease expiry job
 * (shared/licensing/leases/lease-expiry.ts), which deletes it once expired and records `lease.expired`; a heartbeat moves it.
 */
export const leaseEntity = () =>
  new Entity({
    model: model('lease'),
    attributes: {
      leaseId: { type: 'string', required: true },
      licenseId: { type: 'string', required: true },
      tenantId: { type: 'string', required: true },
      productId: { type: 'string', required: true },
      machine: { type: 'string', required: true },
      slot: { type: 'number', required: true },
      createdAt: { type: 'string', required: true },
      expiresAt: { type: 'string', required: true },
      leaseShard: { type: 'string', required: true },
      ttl: { type: 'number' },
    },
    indexes: {
      byId: primaryKey(['leaseId']),
      byExpiry: globalIndex(1, ['leaseShard'], ['expiresAt', 'leaseId']),
    },
  });
