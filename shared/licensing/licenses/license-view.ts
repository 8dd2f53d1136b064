import type { EntityItem } from '../../platform/data/index.js';
import { DEFAULT_LEASE_SECONDS } from '../leases/lease-view.js';
import { DEFAULT_CHANNEL } from '../../catalog/index.js';
import { dueAt } from './expiry-items.js';

export type LicenseItem = EntityItem<'license'>;
export type ProductSummary = { id: string; name: string; slug: string };

/**
 * A license's status as of `now` (DECISIONS §22): one past its expiry (or its grace) reads `expired` at once, before the
 * expiry sweep has moved it.
 */
export function statusAt(item: Pick<LicenseItem, 'status' | 'expiresAt' | 'graceUntil'>, now: Date): LicenseItem['status'] {
  const due = dueAt(item);
  return due !== undefined && due <= now.toISOString() ? 'expired' : item.status;
}

/** A license as the management API shows it, as of `now`; unset optionals are `null`. */
export function toLicense(item: LicenseItem, product: ProductSummary, now: Date) {
  return {
    id: item.licenseId,
    licenseKey: item.licenseKey,
    productId: item.productId,
    planId: item.planId ?? null,
    customerId: item.customerId ?? null,
    customerEmail: item.customerEmail,
    customerName: item.customerName ?? null,
    status: statusAt(item, now),
    seats: item.seats,
    activatedCount: item.activatedCount,
    stagingCount: item.stagingCount ?? 0,
    expiresAt: item.expiresAt ?? null,
    /** Set while a failed renewal payment's grace keeps the license valid past `expiresAt`. */
    graceUntil: item.graceUntil ?? null,
    trialEndsAt: item.trialEndsAt ?? null,
    channel: item.channel ?? DEFAULT_CHANNEL,
    floating: item.floating ?? false,
    leaseSeconds: item.leaseSeconds ?? DEFAULT_LEASE_SECONDS,
    features: item.features ?? [],
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
    product,
  };
}

export type License = ReturnType<typeof toLicense>;
