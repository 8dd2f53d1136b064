import { describe, expect, it } from 'vitest';
import { addDays, dayOf } from '../../../shared/insights/analytics/days.js';
import { writeUsage } from '../../../shared/insights/analytics/usage-writer.js';
import type { Config } from '../../../shared/platform/config.js';
import { STANDARD_ERROR } from '../../../shared/insights/overview/hyperloglog.js';
import { newTenant } from '../../support/client.js';
import { eventually, newLicense, newProduct, plugin, type Tenant } from '../../support/licensing-fixtures.js';
import { stripeEvent } from '../../support/stripe-events.js';
import { refundedCharge, stripeSubscription, unixNow } from '../../support/stripe-objects.js';
import { paidCheckout, shop } from '../../support/stripe-shop.js';
import { localData } from '../../support/table.js';

type Site = { domain: string; version: string; php: string; wp: string };

/** Sites that activate a license and check for updates as WordPress does, reporting their versions. */
async function sitesCheck(slug: string, licenseKey: string, sites: Site[]) {
  for (const { domain, version, php, wp } of sites) {
    expect((await plugin().post('/v1/licenses/activate', { license_key: licenseKey, domain }, { origin: null })).status).toBe(200);
    const query = new URLSearchParams({ slug, license_key: licenseKey, version, domain, php, wp });
    expect((await plugin().get(`/v1/wp/update-check?${query}`, { origin: null })).status).toBe(200);
  }
}

const overview = async (tenant: Tenant, query: Record<string, string> = {}) => {
  const res = await tenant.get(`/api/analytics/overview?${new URLSearchParams(query)}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
};

describe('GET /api/analytics/overview', () => {
  it('adds up purchases, a refund, a cancellation and update checks as computed by hand; a product and a range narrow them', async () => {
    const s = await shop();
    const today = dayOf(new Date());
    // Two yearly subscriptions (49.50 USD) and two lifetime purchases (199 USD) of product A.
    const bought = [await paidCheckout(s, 'yearly'), await paidCheckout(s, 'yearly'), await paidCheckout(s, 'lifetime'), await paidCheckout(s, 'lifetime')];
    for (const { session } of bought) expect((await s.send(stripeEvent('checkout.session.completed', session))).body).toMatchObject({ outcome: 'processed' });
    // One lifetime purchase refunded in full, one subscription ended.
    expect((await s.send(stripeEvent('charge.refunded', refundedCharge(bought[2]!.session.payment_intent as string, 19900)))).body).toMatchObject({ outcome: 'processed' });
    const ended = stripeSubscription({ id: bought[0]!.subscription!.id, start: unixNow(), end: unixNow() + 86_400, status: 'canceled' });
    expect((await s.send(stripeEvent('customer.subscription.deleted', ended))).body).toMatchObject({ outcome: 'processed' });
    // A license made by hand on each product, and sites on several versions checking for updates.
    const other = await newProduct(s.tenant);
    const onA = await newLicense(s.tenant, s.product.id, { seats: 5 });
    const onB = await newLicense(s.tenant, other.id);
    await sitesCheck(s.product.slug, onA.licenseKey, [
      { domain: 'one.example', version: '1.0.0', php: '8.2', wp: '6.6' },
      { domain: 'two.example', version: '1.1.0', php: '8.3', wp: '6.7' },
      { domain: 'three.example', version: '1.1.0', php: '8.3', wp: '6.7' },
    ]);
    await sitesCheck(other.slug, onB.licenseKey, [{ domain: 'four.example', version: '2.0.0', php: '8.1', wp: '6.5' }]);

    // Sightings reach the overview through the usage queue.
    const all = await eventually(() => overview(s.tenant), (body) => body.activeInstalls === 4 && body.installsByWp.length === 3);
    expect(all).toEqual({
      currency: 'USD',
      revenue: { total: 2 * 49.5 + 2 * 199, byDay: expect.arrayContaining([{ date: today, amount: 497 }]) },
      // One currency sold in: its series is the revenue's (test/integration/dashboard/dashboard-polish.test.ts has two).
      revenueByCurrency: [{ currency: 'USD', total: 497, byDay: expect.arrayContaining([{ date: today, amount: 497 }]) }],
      refunds: { total: 199, count: 1 },
      // One yearly subscription left: 49.50 / 12 = 4.125, to the cent.
      mrr: 4.13,
      activeSubscriptions: 1,
      newLicenses: 4 + 2,
      churnedSubscriptions: 1,
      activeInstalls: 4,
      installsByDay: expect.arrayContaining([{ date: today, count: 4 }]),
      installsByVersion: [{ version: '1.1.0', count: 2 }, { version: '1.0.0', count: 1 }, { version: '2.0.0', count: 1 }],
      installsByPhp: [{ version: '8.3', count: 2 }, { version: '8.1', count: 1 }, { version: '8.2', count: 1 }],
      installsByWp: [{ version: '6.7', count: 2 }, { version: '6.5', count: 1 }, { version: '6.6', count: 1 }],
    });
    expect(all.revenue.byDay).toHaveLength(30);
    expect(all.revenue.byDay.at(-1)).toEqual({ date: today, amount: 497 });

    expect(await overview(s.tenant, { product_id: other.id })).toEqual({
      currency: 'USD',
      revenue: { total: 0, byDay: expect.any(Array) },
      revenueByCurrency: [{ currency: 'USD', total: 0, byDay: expect.any(Array) }],
      refunds: { total: 0, count: 0 },
      mrr: 0,
      activeSubscriptions: 0,
      newLicenses: 1,
      churnedSubscriptions: 0,
      activeInstalls: 1,
      installsByDay: expect.arrayContaining([{ date: today, count: 1 }]),
      installsByVersion: [{ version: '2.0.0', count: 1 }],
      installsByPhp: [{ version: '8.1', count: 1 }],
      installsByWp: [{ version: '6.5', count: 1 }],
    });
    const onlyA = await overview(s.tenant, { product_id: s.product.id });
    expect(onlyA).toMatchObject({ revenue: { total: 497 }, newLicenses: 5, activeInstalls: 3, mrr: 4.13, installsByVersion: [{ version: '1.1.0', count: 2 }, { version: '1.0.0', count: 1 }] });

    // A range that ends yesterday holds none of it; the gauges (MRR, active subscriptions) are as of now.
    const yesterday = addDays(today, -1);
    const before = await overview(s.tenant, { from: addDays(today, -3), to: yesterday });
    expect(before).toMatchObject({ revenue: { total: 0 }, refunds: { total: 0, count: 0 }, newLicenses: 0, churnedSubscriptions: 0, activeInstalls: 0, installsByVersion: [], mrr: 4.13 });
    expect(before.revenue.byDay.map((d: { date: string }) => d.date)).toEqual([addDays(today, -3), addDays(today, -2), yesterday]);
    expect((await overview(s.tenant, { from: today, to: today })).revenue.byDay).toEqual([{ date: today, amount: 497 }]);
  });

  it('answers 400 for a bad range or product id, 404 for a product not the caller\'s', async () => {
    const tenant = await newTenant();
    const stranger = await newProduct(await newTenant());
    const cases: [Record<string, string>, number, string][] = [
      [{ from: '2026-02-30' }, 400, 'from: must be a date (YYYY-MM-DD)'],
      [{ from: '2026-02-02', to: '2026-02-01' }, 400, 'from must not be after to'],
      [{ from: '2024-01-01', to: '2026-01-01' }, 400, 'The range may span at most 366 days'],
      [{ product_id: 'nope' }, 400, 'product_id: must be a product id'],
      [{ product_id: stranger.id }, 404, 'Product not found'],
    ];
    for (const [query, status, error] of cases) {
      const res = await tenant.get(`/api/analytics/overview?${new URLSearchParams(query)}`);
      expect([res.status, res.body.error]).toEqual([status, error]);
    }
  });

  it('counts 10,000 distinct sites within the sketch\'s stated error, whichever batches and days saw them', async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant);
    const writer = { data: localData('usageWriter'), config: { analytics: { retentionDays: 90 } } as Config, clock: { now: () => new Date() } };
    const today = dayOf(new Date());
    // 10,000 sites over three days of the last seven, a thousand of them seen on two days (counted once).
    // The same names every run, so the estimate (a hash of each name) is the same: the error bound is checked, not sampled.
    const sites = Array.from({ length: 10_000 }, (_, i) => `site-${i}.example`);
    const sightings = [...sites.map((site, i) => ({ site, day: addDays(today, -(i % 3)) })), ...sites.slice(0, 1000).map((site) => ({ site, day: addDays(today, -5) }))];
    // Batches of 500 (the queue's are up to 100; fewer here keeps the test short), mostly of one day each.
    sightings.sort((a, b) => a.day.localeCompare(b.day));
    const batches = Array.from({ length: Math.ceil(sightings.length / 500) }, (_, b) => sightings.slice(b * 500, b * 500 + 500));
    // Two writers at a time, as the queue's concurrency allows: their merges into one day's sketch must not lose sites.
    for (let b = 0; b < batches.length; b += 2) {
      const runs = batches.slice(b, b + 2).map((batch, n) =>
        writeUsage(
          writer,
          batch.map(({ site, day }, i) => ({
            messageId: `m-${b + n}-${i}`,
            receiveCount: 1,
            body: JSON.stringify({ kind: 'install', productId: product.id, tenantId: tenant.userId, day, site, version: '1.0.0' }),
          })),
        ),
      );
      for (const failed of await Promise.all(runs)) expect(failed).toEqual([]);
    }
    const { activeInstalls } = await overview(tenant, { product_id: product.id });
    expect(Math.abs(activeInstalls - 10_000)).toBeLessThanOrEqual(3 * STANDARD_ERROR * 10_000);
    expect((await overview(tenant)).activeInstalls).toBe(activeInstalls);
  });
});
