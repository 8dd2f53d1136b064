import type { EntityItem } from '../../platform/data/index.js';
import { DEFAULT_LEASE_SECONDS } from '../leases/lease-view.js';
import { DEFAULT_CHANNEL } from '../../catalog/index.js';

export type LicenseItem = EntityItem<'license'>;
export type ProductSummary = { id: string; name: string; slug: string };

/** A license as the management API shows it; unset optionals are `null`. */
export function toLicense(item: LicenseItem, product: ProductSummary) {
  return {
    id: item.licenseId,
    licenseKey: item.licenseKey,
    productId: item.productId,
    planId: item.planId ?? null,
    customerId: item.customerId ?? null,
    customerEmail: item.customerEmail,
    customerName: item.customerName ?? null,
    status: item.status,
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
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
    product,
  };
}

export type License = ReturnType<typeof toLicense>;
