import { describe, expect, it } from 'vitest';
import { soldPlan, soldPlanMetadata, type SoldPlan } from '../../../shared/billing/commerce/sold-plan.js';
import { stripeCheckoutSession } from '../../support/stripe-objects.js';

const pro: SoldPlan = { planId: 'pln_c', name: 'Pro – 5 sites', billingCycle: 'yearly', price: 49.5, currency: 'USD', siteLimit: 5, features: ['reports'] };
const sessionWith = (metadata: Record<string, string>) => stripeCheckoutSession({ id: 'cs_test_1', metadata: { developer_id: 'usr_a', ...metadata } });

describe('the plan as sold, in a Checkout Session\'s metadata', () => {
  it('is written as Stripe keeps metadata (strings) and read back the same', () => {
    const metadata = soldPlanMetadata(pro);
    expect(metadata).toEqual({ plan_id: 'pln_c', plan_name: 'Pro – 5 sites', billing_cycle: 'yearly', price: '49.5', currency: 'USD', seats: '5', features: 'reports' });
    expect(soldPlan(sessionWith(metadata))).toEqual(pro);
    const free: SoldPlan = { ...pro, billingCycle: 'lifetime', price: 0, currency: 'JPY', siteLimit: 1_000_000 };
    expect(soldPlan(sessionWith(soldPlanMetadata(free)))).toEqual(free);
    expect(soldPlan(sessionWith(soldPlanMetadata({ ...pro, price: 999_999.99 })))?.price).toBe(999_999.99);
  });

  it('is missing when an entry is missing or not what checkout writes', () => {
    const metadata: Record<string, string> = soldPlanMetadata(pro);
    expect(soldPlan(stripeCheckoutSession({ id: 'cs_test_1', metadata: null }))).toBeUndefined();
    // A session opened before plans had features sells none.
    const { features: _features, ...beforeFeatures } = metadata;
    expect(soldPlan(sessionWith(beforeFeatures))?.features).toEqual([]);
    for (const key of Object.keys(beforeFeatures)) {
      const { [key as keyof typeof metadata]: _left, ...rest } = metadata;
      expect([key, soldPlan(sessionWith(rest))]).toEqual([key, undefined]);
    }
    for (const [key, value] of [
      ['billing_cycle', 'weekly'], ['price', '-1'], ['price', '1e3'], ['price', '49.999'], ['price', ''], ['currency', 'usd'],
      ['seats', '0'], ['seats', '2.5'], ['seats', 'five'], ['plan_name', ''], ['features', 'Reports'], ['features', 'reports,,x'],
    ]) {
      expect([key, value, soldPlan(sessionWith({ ...metadata, [key!]: value! }))]).toEqual([key, value, undefined]);
    }
  });

  it('spreads many feature keys over values of at most 500 characters, and reads them back in order', () => {
    const features = Array.from({ length: 30 }, (_, i) => `${String(i).padStart(2, '0')}-${'f'.repeat(61)}`);
    const metadata: Record<string, string> = soldPlanMetadata({ ...pro, features });
    const entries = Object.keys(metadata).filter((key) => key.startsWith('features'));
    expect(entries).toEqual(['features', 'features_2', 'features_3', 'features_4', 'features_5']);
    for (const key of entries) expect(metadata[key]!.length).toBeLessThanOrEqual(500);
    expect(soldPlan(sessionWith(metadata))?.features).toEqual(features);
  });
});
