import type Stripe from 'stripe';
import { customerLinkItems, normalizeEmail, resolveCustomerLink } from '../../customers/index.js';
import { toPayment, toSubscription } from '../billing-views.js';
import { counterNames, counterUpdates, transact, type TransactionEntities } from '../../platform/data/index.js';
import { AppError, ConflictError, newId, NotFoundError } from '../../platform/index.js';
import { licenseMailItem, outboxEvent, portalLinkOf } from '../../messaging/index.js';
import { expiryItemChanges, generateLicenseKey, type LicenseItem, type ProductSummary, toLicense } from '../../licensing/index.js';
import { KEY_REFUSED, providerFailure } from '../payments/provider-errors.js';
import { logger, metrics } from '../../platform/observability/index.js';
import { licenseCreatedChanges, overviewCountItems, paymentChanges, subscriptionChanges } from '../../insights/index.js';
import { composerInstallOf, grantedFeatures, loadProduct } from '../../catalog/index.js';
import { processedMark } from './event-claims.js';
import { soldPlan, type SoldPlan } from './sold-plan.js';
import { subscriptionTrialEnd } from './lifecycle-mapping.js';
import { continuedTrialItems, openTrial, type OpenTrial } from '../trials/trial-continuation.js';
import { APPLIED, APPLY_ROUNDS, claimLost, ignored, type Applied, type EventContext } from './event-context.js';
import {
  firstInvoicePdf, paymentRecord, purchaseEmail, purchaseMetadata, purchaseName, sessionPaymentId, sessionSubscriptionId, subscriptionPeriod,
  subscriptionRecord, type Period,
} from './stripe-mapping.js';

/**
 * `checkout.session.completed`: issues what the buyer paid for, in one transaction with the event's processed
 * mark: the customer (found or created by e-mail), the license (the sold plan's seats; expiring at the
 * subscription's period end, or never for a lifetime plan), the payment, the subscription for recurring plans, the
 * lookups later events find them by, their outbound events, the license e-mail to send, and the license key on the
 * checkout session for the return route.
 * What was sold comes from the session's metadata (shared/billing/commerce/sold-plan.ts), so a plan edited or deleted, or a
 * product deleted, since checkout opened still gets the buyer what they paid for; a session without that snapshot
 * (only DECISIONS §6's `plan_id`) gets the plan as it is now.
 * A session that is not this vendor's (no metadata of ours, another vendor's, a product not theirs) changes
 * nothing; nor does an unpaid one (a delayed payment method) until `checkout.session.async_payment_succeeded`
 * reports it paid. A paid session of this vendor's product that cannot be issued is a 500, counted and alarmed:
 * Stripe delivers it again, and the operator looks at it meanwhile.
 */
export async function completePurchase(ctx: EventContext, session: Stripe.Checkout.Session): Promise<Applied> {
  const { deps, tenantId } = ctx;
  const purchase = purchaseMetadata(session);
  if (!purchase) return ignored('checkout session without our metadata');
  if (purchase.tenantId !== tenantId) return ignored('checkout session of another vendor');
  // Deleted or not: a product deleted after the buyer paid still gets them their license.
  const product = await loadProduct(deps, tenantId, purchase.productId).catch((error: unknown) => {
    if (error instanceof NotFoundError) return undefined;
    throw error;
  });
  if (!product) return ignored('product is not this vendor\'s');
  // Delayed payment methods complete the session unpaid; `checkout.session.async_payment_succeeded` brings it paid.
  if (session.payment_status === 'unpaid') return ignored('checkout session not paid yet');
  const plan = soldPlan(session) ?? (await livePlan(ctx, session, product.productId));
  if (!plan) throw notIssued(ctx, session, 'metadata without the plan sold, and no such plan');
  const email = purchaseEmail(session);
  if (!email) throw notIssued(ctx, session, 'no e-mail');

  const stripeSubscriptionId = plan.billingCycle === 'lifetime' ? undefined : sessionSubscriptionId(session);
  if (plan.billingCycle !== 'lifetime' && !stripeSubscriptionId) throw notIssued(ctx, session, 'a recurring plan without a subscription');
  // Stripe down, or the vendor's key rolled: 502 or 400, and Stripe delivers the event again later.
  const subscription = stripeSubscriptionId
    ? await ctx.stripe.subscriptions.retrieve(stripeSubscriptionId, { expand: ['latest_invoice'] }).catch((error: unknown) => Promise.reject(providerFailure(error, KEY_REFUSED)))
    : undefined;
  const period: Period | undefined = subscription && subscriptionPeriod(subscription);
  if (subscription && !period) throw notIssued(ctx, session, 'a subscription without a current period');
  const providerPaymentId = sessionPaymentId(session);
  const invoicePdfUrl = subscription && firstInvoicePdf(session, subscription);

  const customerEmail = normalizeEmail(email);
  const summary = { id: product.productId, name: product.name, slug: product.slug };
  // A Composer-enabled product's e-mail says how to install it with Composer (DECISIONS §24).
  const composer = await composerInstallOf(deps, product, ctx.baseUrl);
  // A checkout trial's license runs to the trial's end (DECISIONS §15); the first paid invoice renews it.
  const trialEndsAt = subscription && subscriptionTrialEnd(subscription);
  const newLicenseId = newId('lic');
  const portalUrl = await portalLinkOf(deps, tenantId, product.publicKey, ctx.baseUrl);
  for (let round = 0; round < APPLY_ROUNDS; round++) {
    const now = deps.clock.now();
    // A no-card trial of this e-mail continues as the paid license: same key (DECISIONS §15).
    const trial = await openTrial(deps, product.productId, customerEmail);
    const licenseId = trial?.license.licenseId ?? newLicenseId;
    // Checkout records its session; one it did not (or that expired) has no return route to tell.
    const { data: checkout } = await deps.data.entities.checkoutSession.get({ checkoutSessionId: session.id }).go({ consistent: true });
    const link = await resolveCustomerLink(deps, tenantId, customerEmail, purchaseName(session), now);
    const license: LicenseItem = {
      ...trial?.license,
      licenseKey: trial?.license.licenseKey ?? generateLicenseKey(product.licensePrefix),
      licenseId,
      tenantId,
      productId: product.productId,
      planId: plan.planId,
      customerId: link.customerId,
      customerEmail,
      customerName: purchaseName(session),
      status: 'active',
      seats: plan.siteLimit,
      ...(plan.channel && { channel: plan.channel }),
      // The plan's as sold, of those the product still defines (a continued trial takes the bought plan's).
      features: grantedFeatures(product, plan.features),
      activatedCount: trial?.license.activatedCount ?? 0,
      // DECISIONS §10: a recurring plan's license runs to the subscription's period end; a lifetime one never expires.
      expiresAt: trialEndsAt ?? period?.end,
      ...(trialEndsAt && { trialEndsAt }),
      createdAt: trial?.license.createdAt ?? now.toISOString(),
      updatedAt: now.toISOString(),
    };
    const owner = { tenantId, customerId: link.customerId, licenseId, product };
    const payment = paymentRecord({
      ...owner,
      paymentId: newId('pay'),
      amountMinor: session.amount_total ?? 0,
      currency: session.currency ?? plan.currency,
      providerPaymentId,
      invoicePdfUrl,
      now,
    });
    const record =
      subscription &&
      subscriptionRecord({
        ...owner,
        subscriptionId: newId('sub'),
        plan,
        providerSubscriptionId: subscription.id,
        status: subscription.status,
        period: period!,
        now,
      });
    const outcome = await transact(deps.data, (tx) => ({
      claim: processedMark(tx, ctx.claim, now),
      // One purchase per session, whichever of its events (completed, async payment succeeded) arrives.
      session: tx.stripeRef.create({ tenantId, stripeId: session.id, licenseId, customerId: link.customerId }).commit(),
      ...issuedLicenseItems(tx, { trial, license, summary, now }),
      customer: customerLinkItems(tx, link, now),
      payment: [
        tx.payment.create(payment).commit(),
        ...outboxEvent(tx, { tenantId, type: 'payment.completed', data: toPayment(payment), now }),
        ...(providerPaymentId ? [tx.stripeRef.put({ tenantId, stripeId: providerPaymentId, paymentId: payment.paymentId, licenseId, customerId: link.customerId }).commit()] : []),
      ],
      subscription: record && [
        tx.subscription.create(record).commit(),
        ...outboxEvent(tx, { tenantId, type: 'subscription.created', data: toSubscription(record), now }),
        tx.stripeRef.put({ tenantId, stripeId: record.providerSubscriptionId!, subscriptionId: record.subscriptionId, licenseId, customerId: link.customerId }).commit(),
      ],
      // Sent from the outbox through the mail queue, once: the buyer's key by e-mail.
      // A continued trial's key is the one already e-mailed for the trial: one license e-mail per license.
      mail: !trial && licenseMailItem(tx, { license, productName: product.name, renews: Boolean(record), seller: ctx.seller, composer, portalUrl }, now),
      overview: overviewCountItems(tx, license, [
        ...paymentChanges(payment),
        // A continued trial's license was counted new when the trial began.
        ...(trial ? [] : licenseCreatedChanges(license)),
        ...(record ? subscriptionChanges(record, 1, now) : []),
      ]),
      // The return route sends the buyer back with this key.
      checkout: checkout ? tx.checkoutSession.patch({ checkoutSessionId: session.id }).set({ licenseKey: license.licenseKey }).commit() : undefined,
    }));
    if (outcome.committed) return APPLIED;
    if (outcome.refused('claim')) throw claimLost();
    if (outcome.refused('session')) return ignored('checkout session already fulfilled');
    // A drawn key taken, a customer created or deleted meanwhile, or the checkout session expired: read again.
    // A trial continued or changed meanwhile is read again too.
    if (!outcome.refused('license') && !outcome.refused('customer') && !outcome.refused('checkout') && !outcome.refused('trial')) throw outcome.unexpected();
  }
  throw new ConflictError('The purchase could not be recorded because of concurrent changes; retry');
}

/**
 * The plan a session names by `plan_id` alone (DECISIONS §6's metadata, as a session opened before checkout wrote
 * the plan as sold, or by another integration, carries it): read as it is now, for want of what was sold.
 */
async function livePlan(ctx: EventContext, session: Stripe.Checkout.Session, productId: string): Promise<SoldPlan | undefined> {
  const planId = session.metadata?.plan_id;
  if (!planId) return undefined;
  const { data: plan } = await ctx.deps.data.entities.plan.get({ planId }).go({ consistent: true });
  return plan && plan.tenantId === ctx.tenantId && plan.productId === productId ? plan : undefined;
}

/** The license a purchase issues, or the no-card trial's license it continues (same key), with what follows each. */
function issuedLicenseItems(tx: TransactionEntities, input: { trial: OpenTrial | undefined; license: LicenseItem; summary: ProductSummary; now: Date }) {
  const { trial, license, summary, now } = input;
  if (trial) {
    const continued = continuedTrialItems(tx, trial, license, summary, now);
    return { license: continued.license, trial: continued.trial, ref: undefined, counters: undefined, licenseEvent: undefined, expiry: undefined };
  }
  return {
    license: tx.license.create(license).commit(),
    ref: tx.licenseRef.create({ licenseId: license.licenseId, licenseKey: license.licenseKey, tenantId: license.tenantId }).commit(),
    counters: counterUpdates(tx.counter, license.tenantId, counterNames.licenses(license.productId, 'active'), 1),
    licenseEvent: outboxEvent(tx, { tenantId: license.tenantId, type: 'license.created', data: toLicense(license, summary, now), now }),
    expiry: expiryItemChanges(tx, license, undefined, license),
    trial: undefined,
  };
}

export const PURCHASE_NOT_ISSUED = 'License could not be issued for this purchase';

/**
 * A paid checkout of this vendor's that cannot be issued (what Stripe sent lacks what the license needs): an
 * error for the operator, counted (`PurchasesNotIssued`, alarmed), and a 500, so that the event is not marked
 * processed and Stripe delivers it again (for 3 days) while someone looks.
 */
function notIssued(ctx: EventContext, session: Stripe.Checkout.Session, reason: string): AppError {
  logger.error('Paid checkout not issued', { tenantId: ctx.tenantId, checkoutSessionId: session.id, reason });
  metrics.purchaseNotIssued();
  return new AppError(500, PURCHASE_NOT_ISSUED);
}
