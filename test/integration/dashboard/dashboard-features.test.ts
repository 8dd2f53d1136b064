import { beforeAll, describe, expect, it } from 'vitest';
import { signedInDashboard, withoutChromium } from '../../support/dashboard-browser.js';
import { button, byRole, screenshot, seriousViolations, text, textbox } from '../../support/dashboard-page.js';

/**
 * Features in the dashboard (DECISIONS §23), in a real Chromium against the local stack: defined on the product's page,
 * granted by a plan's checkboxes, edited on a license's. Needs Chromium: skipped without it, except on CI.
 */
const { page, tenant, go, fill, click, waitFor } = signedInDashboard();
let product: { id: string };
beforeAll(async () => {
  product = (await tenant.post('/api/products', { name: 'Featured Plugin', productType: 'plugin' })).body;
});

const checkbox = (name: string) => byRole('checkbox', name);
const isChecked = (name: string) => page.$eval(checkbox(name), (box) => (box as unknown as { checked: boolean }).checked);

describe.skipIf(withoutChromium)('features in the dashboard', () => {
  it("defines the product's features, checks each key before sending, and grants them from a plan's checkboxes", async () => {
    await go(`/products/${product.id}`);
    await click(button('Add feature'));
    await fill(textbox('Feature 1 key'), 'reports');
    await fill(textbox('Feature 1 name'), 'Reports');
    await click(button('Add feature'));
    await fill(textbox('Feature 2 key'), 'White Label');
    await fill(textbox('Feature 2 name'), 'White label');
    await click(button('Save features'));
    await waitFor(text('1 to 64 lower-case letters, digits or -'));
    expect((await tenant.get(`/api/products/${product.id}`)).body.features).toEqual([]);
    await fill(textbox('Feature 2 key'), 'white-label');
    await click(button('Save features'));
    await waitFor(text('Features saved.'));
    const features = [{ key: 'reports', name: 'Reports' }, { key: 'white-label', name: 'White label' }];
    await expect.poll(async () => (await tenant.get(`/api/products/${product.id}`)).body.features).toEqual(features);
    await screenshot(page, 'product-features');
    expect(await seriousViolations(page)).toEqual([]);

    await go(`/products/${product.id}/plans`);
    await fill(textbox('Plan name'), 'Pro');
    await fill(textbox('Price'), '99');
    await click(checkbox('Reports (reports)'));
    await click(button('Create plan'));
    await waitFor(text('features: reports'));
    const plans = (await tenant.get(`/api/products/${product.id}/plans`)).body.items;
    expect(plans.map((plan: { name: string; features: string[] }) => [plan.name, plan.features])).toEqual([['Pro', ['reports']]]);
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("shows a license's features and edits them with checkboxes", async () => {
    const { body: plan } = await tenant.post(`/api/products/${product.id}/plans`, { name: 'Agency', billingCycle: 'yearly', price: 199, currency: 'usd', features: ['reports'] });
    const { body: license } = await tenant.post('/api/licenses', { productId: product.id, planId: plan.id, customerEmail: 'featured@example.com' });
    expect(license.features).toEqual(['reports']);
    await go(`/licenses/${license.id}`);
    await waitFor(checkbox('White label (white-label)'));
    expect([await isChecked('Reports (reports)'), await isChecked('White label (white-label)')]).toEqual([true, false]);
    await click(checkbox('Reports (reports)'));
    await click(checkbox('White label (white-label)'));
    await click(button('Save changes'));
    await expect.poll(async () => (await tenant.get(`/api/licenses/${license.id}`)).body.features).toEqual(['white-label']);
    // The page shows what the service saved.
    await expect.poll(() => page.$eval('dl.facts', (facts) => facts.textContent)).toContain('Featureswhite-label');
    await screenshot(page, 'license-features');
    expect(await seriousViolations(page)).toEqual([]);
  });
});
