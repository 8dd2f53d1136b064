import { beforeAll, describe, expect, inject, it } from 'vitest';
import { signedInDashboard, withoutChromium } from '../../support/dashboard-browser.js';
import { button, screenshot, seriousViolations, text, textbox } from '../../support/dashboard-page.js';

/**
 * Composer in the dashboard (DECISIONS §24), in a real Chromium against the local stack: the account's vendor name on
 * the Account page, and a Composer-enabled product's `auth.json` and `repositories` snippet in its Connect section.
 * Needs Chromium: skipped without it, except on CI.
 */
const base = inject('baseUrl');
const { page, tenant, go, fill, click, waitFor } = signedInDashboard();
let product: { id: string; slug: string };
let vendor: string;
beforeAll(async () => {
  product = (await tenant.post('/api/products', { name: 'Composer Plugin', productType: 'plugin' })).body;
  vendor = (await tenant.get('/api/account/settings')).body.composerVendor;
});

const snippet = () => page.$eval('code[data-snippet="composer"]', (code) => code.textContent ?? '');

describe.skipIf(withoutChromium)('Composer in the dashboard', () => {
  it("shows the Composer snippet only once the product is Composer-enabled, with the repository, auth.json and the package's name", async () => {
    await go(`/products/${product.id}`);
    await waitFor('code[data-snippet="wordpress"]');
    expect(await page.$('code[data-snippet="composer"]')).toBeNull();

    await click('label::-p-text(Installed with Composer)');
    await click(button('Save product'));
    await waitFor(text('Saved.'));
    await expect.poll(async () => (await tenant.get(`/api/products/${product.id}`)).body.composerEnabled).toBe(true);
    await waitFor('code[data-snippet="composer"]');
    const code = await snippet();
    expect(code).toContain(`"url": "${base}/composer"`);
    expect(code).toContain(`"${new URL(base).host}": {`);
    expect(code).toContain(`"${vendor}/${product.slug}": "*"`);
    expect(code).toContain(`composer require ${vendor}/${product.slug}`);
    await screenshot(page, 'product-connect-composer');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('shows the vendor name on the Account page and saves a new one, refusing one Composer would not take', async () => {
    await go('/account');
    await waitFor(textbox('Vendor name'));
    expect(await page.$eval(textbox('Vendor name'), (input) => (input as unknown as { value: string }).value)).toBe(vendor);
    await fill(textbox('Vendor name'), 'Not Valid');
    await click(button('Save vendor'));
    await waitFor(text('Lower-case letters and digits, joined by single -, _ or .'));
    const chosen = `dash-${Date.now().toString(36)}`;
    await fill(textbox('Vendor name'), chosen);
    await click(button('Save vendor'));
    await expect.poll(async () => (await tenant.get('/api/account/settings')).body.composerVendor).toBe(chosen);
    await screenshot(page, 'account-composer-vendor');
    expect(await seriousViolations(page)).toEqual([]);
  });
});
