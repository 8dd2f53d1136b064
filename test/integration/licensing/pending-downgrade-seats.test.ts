import { describe, expect, it } from 'vitest';
import { activate, body, buyer, changePlan, licenseOf, shop, subscribe, tellRenewal } from '../../support/plan-shop.js';

/**
 * DECISIONS §20: while a downgrade is pending, new activations count against the smaller of the current and the
 * pending seats, so the license's active sites fit the plan when the downgrade applies: sites and machines alike,
 * and a floating license's leases.
 */

const edge = (path: string, payload: Record<string, unknown>) => buyer.post(path, payload, { origin: null });
const domains = (n: number, tag: string) => Array.from({ length: n }, (_, i) => `site-${i}.${tag}.example.com`);

describe('a pending downgrade caps new activations', () => {
  it('refuses sites and machines past the pending seats, so the renewal finds the sites within them', async () => {
    const s = await shop();
    const { license, subscription, subscriptionId } = await subscribe(s, 'shrinking@example.com', { plan: s.plans.agency });
    const sites = domains(10, 'shrink');
    await activate(license.licenseKey, sites);
    for (const domain of sites.slice(3)) await body(edge('/v1/licenses/deactivate', { license_key: license.licenseKey, domain }));

    const down = await body(changePlan(s, subscriptionId, s.plans.basic.id));
    expect(down.subscription.pendingPlanId).toBe(s.plans.basic.id);
    // The license keeps its plan and seats until the period ends; what it takes meanwhile is capped at the pending 3.
    expect(await licenseOf(s, license.id)).toMatchObject({ seats: 10, activatedCount: 3 });
    for (const domain of sites.slice(3)) {
      const refused = await edge('/v1/licenses/activate', { license_key: license.licenseKey, domain });
      expect([refused.status, refused.body.error]).toEqual([400, 'License seat limit reached']);
    }
    const machine = await edge('/v1/licenses/activate', { license_key: license.licenseKey, machine: 'laptop-fingerprint-1', name: 'Laptop' });
    expect([machine.status, machine.body.error]).toEqual([400, 'License seat limit reached']);
    // A seat freed is a seat to take again, up to the pending seats.
    await body(edge('/v1/licenses/deactivate', { license_key: license.licenseKey, domain: sites[0] }));
    await body(edge('/v1/licenses/activate', { license_key: license.licenseKey, machine: 'laptop-fingerprint-1', name: 'Laptop' }));
    expect((await edge('/v1/licenses/activate', { license_key: license.licenseKey, domain: sites[9] })).status).toBe(400);

    await tellRenewal(s, subscription.id);
    expect(await licenseOf(s, license.id)).toMatchObject({ planId: s.plans.basic.id, seats: 3, activatedCount: 3 });
    const validated = await body(edge('/v1/licenses/validate', { license_key: license.licenseKey, domain: sites[1] }));
    expect(validated).toMatchObject({ valid: true, license: { seats: 3, activatedCount: 3 } });
  });

  it('holds a floating license\'s new leases to the pending seats', async () => {
    const s = await shop();
    const { license, subscription, subscriptionId } = await subscribe(s, 'floating@example.com', { plan: s.plans.agency });
    await body(s.tenant.put(`/api/licenses/${license.id}`, { floating: true }));
    await body(changePlan(s, subscriptionId, s.plans.basic.id));

    const machines = ['m-1', 'm-2', 'm-3'];
    for (const machine of machines) await body(edge('/v1/licenses/leases', { license_key: license.licenseKey, machine }), 201);
    const refused = await edge('/v1/licenses/leases', { license_key: license.licenseKey, machine: 'm-4' });
    expect([refused.status, refused.body.error]).toEqual([409, 'All seats are in use']);
    // A machine holding a lease renews it.
    expect((await edge('/v1/licenses/leases', { license_key: license.licenseKey, machine: 'm-2' })).status).toBeLessThan(300);

    await tellRenewal(s, subscription.id);
    expect(await licenseOf(s, license.id)).toMatchObject({ planId: s.plans.basic.id, seats: 3 });
  });
});
