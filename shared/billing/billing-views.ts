import type { EntityItem } from '../platform/data/index.js';


/** A payment as SERVICE-SPEC §2 shows it (the portal calls it an invoice). */
export function toPayment(item: EntityItem<'payment'>) {
  return {
    id: item.paymentId,
    amount: item.amount,
    currency: item.currency,
    status: item.status,
    paymentMethod: item.paymentMethod,
    invoicePdfUrl: item.invoicePdfUrl ?? null,
    productName: item.productName ?? null,
    createdAt: item.createdAt,
  };
}

/** A subscription as SERVICE-SPEC §2 shows it. */
export function toSubscription(item: EntityItem<'subscription'>) {
  return {
    id: item.subscriptionId,
    status: item.status,
    currentPeriodStart: item.currentPeriodStart ?? null,
    currentPeriodEnd: item.currentPeriodEnd ?? null,
    cancelAtPeriodEnd: item.cancelAtPeriodEnd,
    canceledAt: item.canceledAt ?? null,
    planId: item.planId ?? null,
    planName: item.planName ?? null,
    billingCycle: item.billingCycle ?? null,
    price: item.price ?? null,
    currency: item.currency ?? null,
    productName: item.productName ?? null,
    pendingPlanId: item.pendingPlanId ?? null,
    pendingPlanEffectiveAt: item.pendingPlanEffectiveAt ?? null,
  };
}
