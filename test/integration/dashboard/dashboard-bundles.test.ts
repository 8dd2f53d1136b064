import { beforeAll, describe, expect, it } from 'vitest';
import { signedInDashboard, withoutChromium } from '../../support/dashboard-browser.js';
import { button, byRole, link, screenshot, seriousViolations, text, textbox } from '../../support/dashboard-page.js';

/**
 * Bundles in the dashboard (DECISIONS §23), in a real Chromium against the local stack: the included products chosen on
 * the product form, a bundle license's products on its page. Needs Chromium: skipped without it, except on CI.
 */
const { page, tenant, go, fill, click, waitFor } = signedInDashboard();
let plugins: { id: string; name: string }[];
beforeAll(async () => {
  plugins = [];
  for (const name of ['Bundled Forms', 'Bundled Charts', 'Solo Plugin']) plugins.push((await tenant.post('/api/products', { name, productType: 'plugin' })).body);
});

const checkbox = (name: string) => byRole('checkbox', name);

describe.skipIf(withoutChromium)('bundles in the dashboard', () => {
  it("creates a bundle from checked products, edits its list, and shows a bundle license's products", async () => {
    await go('/products/new');
    await fill(textbox('Name'), 'All Access');
    await page.select(byRole('combobox', 'Type'), 'bundle');
    await click(checkbox('Bundled Forms'));
    await click(button('Create product'));
    // One product is not a bundle: the form says so before sending.
    await waitFor(text('A bundle includes 2 to 100 products'));
    await click(checkbox('Bundled Charts'));
    await click(button('Create product'));
    await page.waitForFunction("/\\/products\\/prd_/.test(location.pathname)");
    const bundleId = /\/products\/(prd_[a-z2-7]+)/.exec(page.url())![1]!;
    await expect.poll(async () => (await tenant.get(`/api/products/${bundleId}`)).body).toMatchObject({ productType: 'bundle', includes: [plugins[0]!.id, plugins[1]!.id] });
    expect(await seriousViolations(page)).toEqual([]);

    // Editing: a third product in, the first out.
    await go(`/products/${bundleId}`);
    await click(checkbox('Solo Plugin'));
    await click(checkbox('Bundled Forms'));
    await click(button('Save product'));
    await expect.poll(async () => (await tenant.get(`/api/products/${bundleId}`)).body.includes).toEqual([plugins[1]!.id, plugins[2]!.id]);

    const { body: license } = await tenant.post('/api/licenses', { productId: bundleId, customerEmail: 'bundle@example.com' });
    await go(`/licenses/${license.id}`);
    await waitFor(link('Solo Plugin'));
    expect(await page.$eval('dl.facts', (facts) => facts.textContent)).toContain('All Access (bundle)');
    expect(await page.$$eval('[aria-label="Products of the bundle"] li', (items) => items.map((item) => item.textContent))).toEqual(['Bundled Charts', 'Solo Plugin']);
    await screenshot(page, 'bundle-license');
    expect(await seriousViolations(page)).toEqual([]);
  });
});
