import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { describe, expect, inject, it } from 'vitest';
import { AlreadyBackfilledError, backfillOverview } from '../../../shared/insights/overview/backfill.js';
import { readOverview } from '../../../shared/insights/overview/overview.js';
import { localData, tableOfItsOwn } from '../../support/table.js';

const tenantId = 'usr_backfilled';
const productId = 'prd_backfilled';
const at = (day: string) => `${day}T12:00:00.000Z`;

/** Payments, subscriptions and licenses as a stack before the overview left them, and one made after the upgrade. */
async function pastRecords(data: ReturnType<typeof localData>) {
  const owner = { tenantId, customerId: 'cus_1', productId };
  const payment = (paymentId: string, amount: number, status: 'completed' | 'refunded', day: string) =>
    data.entities.payment.put({ ...owner, paymentId, amount, currency: 'EUR', status, paymentMethod: 'stripe', createdAt: at(day) }).go();
  await payment('pay_1', 49.5, 'completed', '2026-11-01');
  await payment('pay_2', 120, 'refunded', '2026-11-02');
  await payment('pay_after', 10, 'completed', '2026-11-20');
  const subscription = (subscriptionId: string, status: string, billingCycle: string, price: number, updatedAt: string) =>
    data.entities.subscription.put({ ...owner, subscriptionId, status, billingCycle, price, currency: 'EUR', createdAt: at('2026-11-01'), updatedAt }).go();
  await subscription('sub_1', 'active', 'monthly', 9, at('2026-11-01'));
  await subscription('sub_2', 'canceled', 'yearly', 120, at('2026-11-03'));
  const license = (licenseId: string, day: string) =>
    data.entities.license.put({ ...owner, licenseId, licenseKey: `KEY-${licenseId}`, customerEmail: 'a@example.com', status: 'active', seats: 1, createdAt: at(day), updatedAt: at(day) }).go();
  await license('lic_1', '2026-11-01');
  await license('lic_2', '2026-11-02');
}

describe('backfilling the overview (scripts/backfill-overview.ts)', () => {
  it('counts the payments, subscriptions and licenses made before the upgrade, once', async () => {
    const tableName = await tableOfItsOwn();
    const client = DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: inject('dynamoEndpoint'), region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } }));
    const data = localData('all', tableName);
    await pastRecords(data);
    const upgrade = new Date(at('2026-11-10'));

    expect(await backfillOverview(client, tableName, upgrade)).toMatchObject({ payments: 2, subscriptions: 2, licenses: 2 });
    const deps = { data, clock: { now: () => new Date(at('2026-11-10')) } };
    const overview = await readOverview(deps, tenantId, { from: '2026-11-01', to: '2026-11-10' });
    expect(overview).toMatchObject({
      currency: 'EUR',
      revenue: { total: 169.5 },
      // The refund's own day is not recorded: it counts on its payment's.
      refunds: { total: 120, count: 1 },
      mrr: 9,
      activeSubscriptions: 1,
      newLicenses: 2,
      churnedSubscriptions: 1,
    });
    expect(overview.revenue.byDay.slice(0, 3)).toEqual([{ date: '2026-11-01', amount: 49.5 }, { date: '2026-11-02', amount: 120 }, { date: '2026-11-03', amount: 0 }]);
    const { data: productCounts } = await data.entities.overviewCount.query.byScope({ tenantId, scope: productId, day: '2026-11-02' }).go();
    expect(productCounts.map(({ metric, name, count }) => [metric, name, count]).sort()).toEqual([['newLicenses', 'all', 1], ['refundCount', 'EUR', 1], ['refunds', 'EUR', 12000], ['revenue', 'EUR', 12000]]);

    await expect(backfillOverview(client, tableName, upgrade)).rejects.toThrow(AlreadyBackfilledError);
    expect((await readOverview(deps, tenantId, { from: '2026-11-01', to: '2026-11-10' })).revenue.total).toBe(169.5);
  });
});
