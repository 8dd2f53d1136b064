import type Stripe from 'stripe';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EventContext } from '../../../shared/billing/commerce/event-context.js';
import { completePurchase, PURCHASE_NOT_ISSUED } from '../../../shared/billing/commerce/purchase.js';
import { soldPlanMetadata } from '../../../shared/billing/commerce/sold-plan.js';
import { AppError } from '../../../shared/platform/errors.js';
import { logger } from '../../../shared/platform/observability/logger.js';
import { metrics } from '../../../shared/platform/observability/metrics.js';
import { ids, NOW, seedProduct, TENANT } from '../../support/mock-items.js';
import { mockTable, type MockTable } from '../../support/mock-table.js';
import { paidSession, stripeCheckoutSession } from '../../support/stripe-objects.js';

let table: MockTable;
afterEach(() => {
  table.ddb.restore();
  vi.restoreAllMocks();
});

function setUp(): EventContext {
  table = mockTable();
  seedProduct(table);
  const deps = { data: table.data, clock: { now: () => NOW } } as unknown as EventContext['deps'];
  return { deps, tenantId: TENANT, claim: { tenantId: TENANT, stripeEventId: 'evt_1', token: 'mine' }, eventCreated: NOW.getTime() / 1000, stripe: {} as Stripe, seller: {}, baseUrl: 'https://licenses.example.com' };
}

const sold = soldPlanMetadata({ planId: ids.plan, name: 'Pro', billingCycle: 'lifetime', price: 49, currency: 'USD', siteLimit: 2 });
const paid = (metadata: Stripe.Metadata, email = 'buyer@example.com') =>
  paidSession(stripeCheckoutSession({ id: 'cs_test_1', metadata }), { email, amountTotal: 4900, payment_intent: 'pi_1' });

describe('a paid checkout that cannot be issued', () => {
  it('is a 500 (Stripe retries), logged and counted on the alarmed metric, with nothing written', async () => {
    const ctx = setUp();
    const counted = vi.spyOn(metrics, 'purchaseNotIssued');
    const logged = vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const ours = { developer_id: TENANT, product_id: ids.product };
    for (const [session, reason] of [
      [paid(ours), 'metadata without the plan sold, and no such plan'],
      [paid({ ...ours, ...sold, billing_cycle: 'yearly' }), 'a recurring plan without a subscription'],
      [{ ...paid({ ...ours, ...sold }), customer_details: null }, 'no e-mail'],
    ] as const) {
      const failure = await completePurchase(ctx, session).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(AppError);
      expect(failure).toMatchObject({ statusCode: 500, message: PURCHASE_NOT_ISSUED });
      expect(logged).toHaveBeenLastCalledWith('Paid checkout not issued', { tenantId: TENANT, checkoutSessionId: 'cs_test_1', reason });
    }
    expect(counted).toHaveBeenCalledTimes(3);
    expect(table.writes()).toEqual([]);
  });

  it('is not a session of this vendor\'s: acknowledged and ignored, never counted', async () => {
    const ctx = setUp();
    const counted = vi.spyOn(metrics, 'purchaseNotIssued');
    for (const metadata of [{}, { developer_id: 'usr_bbbbbbbbbbbbbbbbbbbbbbbb', product_id: ids.product, ...sold }, { developer_id: TENANT, product_id: 'prd_bbbbbbbbbbbbbbbbbbbbbbbb', ...sold }]) {
      expect(await completePurchase(ctx, paid(metadata))).toMatchObject({ kind: 'ignored' });
    }
    expect(counted).not.toHaveBeenCalled();
  });
});
