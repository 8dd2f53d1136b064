import { Entity } from 'electrodb';
import { globalIndex, model, primaryKey } from '../keys.js';

export const paymentEntity = () =>
  new Entity({
    model: model('payment'),
    attributes: {
      paymentId: { type: 'string', required: true },
      tenantId: { type: 'string', required: true },
      customerId: { type: 'string', required: true },
      productId: { type: 'string' },
      productName: { type: 'string' },
      licenseId: { type: 'string' },
      amount: { type: 'number', required: true },
      currency: { type: 'string', required: true },
      status: { type: ['completed', 'refunded'] as const, required: true },
      paymentMethod: { type: 'string', required: true },
      invoicePdfUrl: { type: 'string' },
      providerPaymentId: { type: 'string' },
      createdAt: { type: 'string', required: true },
    },
    indexes: {
      byId: primaryKey(['paymentId']),
      byCustomer: globalIndex(1, ['customerId'], ['createdAt', 'paymentId']),
    },
  });

export const subscriptionEntity = () =>
  new Entity({
    model: model('subscription'),
    attributes: {
      subscriptionId: { type: 'string', required: true },
      tenantId: { type: 'string', required: true },
      customerId: { type: 'string', required: true },
      licenseId: { type: 'string' },
      productId: { type: 'string' },
      productName: { type: 'string' },
      planId: { type: 'string' },
      planName: { type: 'string' },
      billingCycle: { type: 'string' },
      price: { type: 'number' },
      currency: { type: 'string' },
      status: { type: 'string', required: true },
      currentPeriodStart: { type: 'string' },
      currentPeriodEnd: { type: 'string' },
      cancelAtPeriodEnd: { type: 'boolean', required: true, default: false },
      canceledAt: { type: 'string' },
      providerSubscriptionId: { type: 'string' },
      /** `created` (unix s) of the last Stripe subscription event synced: an older one arriving late is not applied. */
      providerEventAt: { type: 'number' },
      /** A downgrade asked for, taking effect at `pendingPlanEffectiveAt` (the period's end; DECISIONS §15). */
      pendingPlanId: { type: 'string' },
      pendingPlanEffectiveAt: { type: 'string' },
      createdAt: { type: 'string', required: true },
      updatedAt: { type: 'string', required: true },
    },
    indexes: {
      byId: primaryKey(['subscriptionId']),
      byCustomer: globalIndex(1, ['customerId'], ['createdAt', 'subscriptionId']),
    },
  });
