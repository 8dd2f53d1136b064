/** The public surface of the billing context: what other contexts and the functions use of it (docs/architecture.md). */
export { toPayment, toSubscription } from './billing-views.js';
export { UNKNOWN_VENDOR, receiveStripeEvent } from './commerce/stripe-webhook.js';
export type { Receipt } from './commerce/stripe-webhook.js';
export { createCoupon, deactivateCoupon, listCoupons } from './coupons/coupons.js';
export type { Coupon } from './coupons/coupons.js';
export { checkoutReturn } from './payments/checkout-return.js';
export { startCheckout } from './payments/checkout.js';
export { createPaymentDeps } from './payments/payment-deps.js';
export type { PaymentDeps } from './payments/payment-deps.js';
export { connectProvider, disconnectProvider, providerSecretKey, providerStatus, updateTaxSettings } from './payments/payment-provider.js';
export type { ProviderStatus } from './payments/payment-provider.js';
export { KEY_REFUSED, providerFailure } from './payments/provider-errors.js';
export { listPublicPlans, plansOnSale } from './payments/public-plans.js';
export { PLAN_NOT_FOUND, SUBSCRIPTION_NOT_FOUND, changePlan } from './subscriptions/change-plan.js';
export { claimAddress } from './trials/claim-address.js';
export { startTrial } from './trials/start-trial.js';
