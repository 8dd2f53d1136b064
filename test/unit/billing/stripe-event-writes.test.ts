import type Stripe from 'stripe';
import { afterEach, describe, expect, it } from 'vitest';
import type { EventContext } from '../../../shared/billing/commerce/event-context.js';
import { endSubscription } from '../../../shared/billing/commerce/subscription-sync.js';
import { ConflictError, ServiceUnavailableError } from '../../../shared/platform/errors.js';
import { ids, LICENSE_KEY, licenseItem, NOW, TENANT } from '../../support/mock-items.js';
import { mockTable, type MockTable } from '../../support/mock-table.js';
import { stripeSubscription } from '../../support/stripe-objects.js';

/**
 * The transaction that applies a Stripe event, against a table that answers as DynamoDB does when the claim was
 * taken over meanwhile or the transaction meets contention (which DynamoDB Local never produces).
 */
const SUBSCRIPTION_ID = 'sub_aaaaaaaaaaaaaaaaaaaaaaaa';
const STRIPE_SUBSCRIPTION = 'sub_1Stripe';
const periodEnd = Date.parse('2031-01-01T00:00:00.000Z') / 1000;
const ended = stripeSubscription({ id: STRIPE_SUBSCRIPTION, status: 'canceled', canceledAt: NOW.getTime() / 1000, start: NOW.getTime() / 1000, end: periodEnd });

let table: MockTable;
afterEach(() => table.ddb.restore());

function setUp(): EventContext {
  table = mockTable();
  const at = NOW.toISOString();
  table.seed('license', { ...licenseItem, expiresAt: '2030-06-01T00:00:00.000Z' });
  table.seed('licenseRef', { licenseId: ids.license, licenseKey: LICENSE_KEY, tenantId: TENANT });
  table.seed('stripeRef', { tenantId: TENANT, stripeId: STRIPE_SUBSCRIPTION, subscriptionId: SUBSCRIPTION_ID, licenseId: ids.license, customerId: ids.customer });
  table.seed('subscription', {
    subscriptionId: SUBSCRIPTION_ID, tenantId: TENANT, customerId: ids.customer, licenseId: ids.license, status: 'active', cancelAtPeriodEnd: false, createdAt: at, updatedAt: at,
  });
  const deps = { data: table.data, clock: { now: () => NOW } } as unknown as EventContext['deps'];
  return { deps, tenantId: TENANT, claim: { tenantId: TENANT, stripeEventId: 'evt_1', token: 'mine' }, eventCreated: NOW.getTime() / 1000, stripe: {} as Stripe, seller: {}, baseUrl: 'https://licenses.example.com' };
}

// Slots, in order: claim (the processed mark), subscription, license…, event.
describe('Stripe event transaction', () => {
  it('answers 409, committing nothing, when another delivery took the claim over', async () => {
    const ctx = setUp();
    table.cancelTransactions(['ConditionalCheckFailed']);
    await expect(endSubscription(ctx, ended)).rejects.toBeInstanceOf(ConflictError);
    expect(table.transactions()).toHaveLength(1);
  });

  it('retries a TransactionConflict and then commits the change with its processed mark', async () => {
    const ctx = setUp();
    table.cancelTransactions(['None', 'TransactionConflict']);
    expect(await endSubscription(ctx, ended)).toEqual({ kind: 'applied' });
    const [, committed] = table.transactions();
    expect(JSON.stringify(committed)).toContain('"processed"');
  });

  it('answers 503 when contention outlasts the retries, never a domain answer', async () => {
    const ctx = setUp();
    table.alwaysCancelTransactions(['None', 'TransactionConflict']);
    await expect(endSubscription(ctx, ended)).rejects.toBeInstanceOf(ServiceUnavailableError);
  });
});
