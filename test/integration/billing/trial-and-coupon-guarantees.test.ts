import { describe, expect, it } from 'vitest';
import { body, buyer, fake, openCheckout, shop, subscribe, type Shop } from '../../support/plan-shop.js';
import { stripeId } from '../../support/stripe-objects.js';

/** DECISIONS §20: what a trial claim holds, what a paid checkout ends with, and whom a coupon restricted to plans discounts. */

const startTrial = (s: Shop, email: string) => buyer.post('/public/v1/trials', { public_key: s.publicKey, plan: 'basic', email }, { origin: null });
const licensesOf = async (s: Shop, email: string) => (await body(s.tenant.get(`/api/licenses?search=${encodeURIComponent(email.toLowerCase())}`))).items as any[];

async function trialLicense(s: Shop, email: string) {
  expect(await body(startTrial(s, email), 201)).toEqual({ sent: true });
  const [trial] = await licensesOf(s, email);
  return trial;
}

describe('a paid checkout after a no-card trial', () => {
  it('ends with one license for the payer whatever became of the trial: transferred, revoked or expired', async () => {
    const s = await shop({ trialDays: 7 });
    const tag = stripeId('t').slice(-8);

    const transferredFrom = `gave-away-${tag}@example.com`;
    const given = await trialLicense(s, transferredFrom);
    await body(s.tenant.post(`/api/licenses/${given.id}/transfer`, { email: `colleague-${tag}@example.com` }));
    const paidAfterTransfer = await subscribe(s, transferredFrom);
    expect(paidAfterTransfer.license).toMatchObject({ customerEmail: transferredFrom, status: 'active', seats: 3 });
    expect(paidAfterTransfer.license.licenseKey).not.toBe(given.licenseKey);
    expect(await licensesOf(s, transferredFrom)).toHaveLength(1);
    expect(await licensesOf(s, `colleague-${tag}@example.com`)).toEqual([expect.objectContaining({ id: given.id, licenseKey: given.licenseKey })]);

    const revokedFor = `revoked-${tag}@example.com`;
    const revoked = await trialLicense(s, revokedFor);
    await body(s.tenant.post(`/api/licenses/${revoked.id}/revoke`));
    await subscribe(s, revokedFor);
    const afterRevoke = await licensesOf(s, revokedFor);
    expect(afterRevoke.filter((l) => l.status === 'active')).toEqual([expect.objectContaining({ seats: 3 })]);
    expect(afterRevoke.find((l) => l.status === 'active').licenseKey).not.toBe(revoked.licenseKey);

    const expiredFor = `expired-${tag}@example.com`;
    const expired = await trialLicense(s, expiredFor);
    await body(s.tenant.put(`/api/licenses/${expired.id}`, { status: 'expired', expiresAt: new Date(Date.now() - 1000).toISOString() }));
    const continued = await subscribe(s, expiredFor);
    expect(continued.license).toMatchObject({ id: expired.id, licenseKey: expired.licenseKey, status: 'active' });
    expect(await licensesOf(s, expiredFor)).toHaveLength(1);
  });
});

describe('trial claims', () => {
  it('compare addresses lower-cased without a +tag, and without dots at gmail.com', async () => {
    const s = await shop({ trialDays: 7 });
    const local = stripeId('ann').slice(-10);
    const taken = [`${local}@gmail.com`, `${local.slice(0, 3)}.${local.slice(3)}+other@Gmail.com`, `${local.toUpperCase()}+again@gmail.com`];
    await trialLicense(s, `${local.slice(0, 4)}.${local.slice(4)}+trial@GMAIL.com`);
    for (const email of taken) {
      const again = await startTrial(s, email);
      expect([email, again.status, again.body]).toEqual([email, 409, { error: 'A trial was already started for this e-mail' }]);
    }
    // Outside gmail.com a dot is part of the address; a +tag still is not.
    await trialLicense(s, `${local}+one@example.com`);
    expect((await startTrial(s, `${local}@example.com`)).status).toBe(409);
    expect((await startTrial(s, `${local.slice(0, 2)}.${local.slice(2)}@example.com`)).status).toBe(201);
  });
});

describe('a coupon restricted to plans', () => {
  it('discounts no other plan, by `promo` or typed at Stripe, and its own plans either way', async () => {
    const s = await shop({ allowPromotionCodes: true });
    const pro = await s.addPlan({ name: 'Pro', slug: 'pro', price: 20, siteLimit: 5, allowPromotionCodes: true });
    await body(s.tenant.post('/api/coupons', { code: 'BASICONLY', percentOff: 50, duration: 'forever', planIds: [s.plans.basic.id] }), 201);
    await body(s.tenant.post('/api/coupons', { code: 'EVERYONE', percentOff: 10, duration: 'once' }), 201);

    const other = await openCheckout(s, pro.id);
    expect(other.res.status, other.res.text).toBe(303);
    expect(await fake.typePromotionCode(other.sessionId!, 'basiconly')).toBeNull();
    expect((await fake.typePromotionCode(other.sessionId!, 'EVERYONE'))?.discounts).toHaveLength(1);
    const promo = await openCheckout(s, pro.id, { promo: 'BASICONLY' });
    expect([promo.res.status, promo.res.body]).toEqual([400, { error: 'Invalid promotion code' }]);

    const own = await openCheckout(s, s.plans.basic.id);
    expect((await fake.typePromotionCode(own.sessionId!, 'BASICONLY'))?.discounts).toHaveLength(1);
    const ownPromo = await openCheckout(s, s.plans.basic.id, { promo: 'basiconly' });
    expect(ownPromo.res.status, ownPromo.res.text).toBe(303);
  });
});
