import { createHash } from 'node:crypto';
import type { EntityItem } from '../../platform/data/index.js';

export type LeaseItem = EntityItem<'lease'>;
export type LeaseSlotItem = EntityItem<'leaseSlot'>;

/** How long a lease lives without a heartbeat when the license does not say (DECISIONS §18). */
export const DEFAULT_LEASE_SECONDS = 900;
export const MIN_LEASE_SECONDS = 60;
export const MAX_LEASE_SECONDS = 86_400;

/** Lease items are indexed for the expiry job over this many partitions; the job queries each. */
export const LEASE_SHARD_COUNT = 8;
export const LEASE_SHARDS = Array.from({ length: LEASE_SHARD_COUNT }, (_, n) => String(n));

const firstByte = (text: string) => createHash('sha256').update(text).digest()[0]!;

export const leaseShard = (leaseId: string) => String(firstByte(leaseId) % LEASE_SHARD_COUNT);

/** Pool items outlive their lease by a day, then TTL removes them (nothing reads an expired one as held). */
export const poolItemTtl = (expiresAt: Date) => Math.floor(expiresAt.getTime() / 1000) + 86_400;

/** A lease as events and the management API show it. */
export function toLease(item: Pick<LeaseItem, 'leaseId' | 'licenseId' | 'productId' | 'machine' | 'createdAt' | 'expiresAt'>) {
  return {
    id: item.leaseId,
    licenseId: item.licenseId,
    productId: item.productId,
    machine: item.machine,
    createdAt: item.createdAt,
    expiresAt: item.expiresAt,
  };
}

export type Lease = ReturnType<typeof toLease>;

/**
 * The order a machine tries the slots in: from a start its fingerprint hashes to, round the pool. Machines asking at
 * once mostly aim at different free slots, so fewer conditional puts collide than if all began at slot 0.
 */
export function slotOrder(machine: string, seats: number): number[] {
  const start = createHash('sha256').update(machine).digest().readUInt32BE(0) % seats;
  return Array.from({ length: seats }, (_, n) => (start + n) % seats);
}
