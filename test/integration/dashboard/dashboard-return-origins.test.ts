import { beforeAll, describe, expect, inject, it } from 'vitest';
import { Client } from '../../support/client.js';
import { signedInDashboard, withoutChromium } from '../../support/dashboard-browser.js';
import { button, screenshot, seriousViolations, text, textbox } from '../../support/dashboard-page.js';

/**
 * A product's return origins in the dashboard, in a real Chromium against the local stack: a saved product's form
 * warns while the list is empty (a new product's does not, before anything is saved), checks each origin before sending, and what it saves is what checkout holds `return_url` to.
 * Needs Chromium: skipped without it, except on CI.
 */
const buyer = new Client(inject('baseUrl'));
const WARNING = 'No return origins.';

const { page, tenant, go, fill, click, waitFor } = signedInDashboard();
let product: { id: string; public_key: string };
beforeAll(async () => {
  product = (await tenant.post('/api/products', { name: 'Origins Plugin', productType: 'plugin' })).body;
  expect((await tenant.post(`/api/products/${product.id}/plans`, { name: 'Pro', slug: 'pro', billingCycle: 'yearly', price: 49, currency: 'usd' })).status).toBe(201);
});

const warning = `.banner-warning${text(WARNING)}`;
const warningGone = () => page.waitForSelector(warning, { hidden: true });
const saved = async () => (await tenant.get(`/api/products/${product.id}`)).body.returnOrigins as string[];
/** Saves the form; the service's answer shows as "Saved.". */
async function save() {
  await click(button('Save product'));
  await waitFor(text('Saved.'));
}

describe.skipIf(withoutChromium)('return origins in the dashboard', () => {
  it('does not warn on a new product, before anything is saved (issue 48)', async () => {
    await go('/products/new');
    await click('summary::-p-text(Advanced)');
    await waitFor(textbox('Return origins'));
    expect(await page.$(warning)).toBeNull();
    await screenshot(page, 'product-new-return-origins');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('warns while the list is empty, checks each origin before sending, and saves the list checkout then holds to', async () => {
    await go(`/products/${product.id}`);
    await waitFor(textbox('Return origins'));
    await waitFor(warning);

    await fill(textbox('Return origins'), 'https://shop.example.com/thanks');
    await warningGone();
    await click(button('Save product'));
    await waitFor(text('Return origin https://shop.example.com/thanks is not an origin'));
    expect(await saved()).toEqual([]);

    await fill(textbox('Return origins'), 'https://Shop.Example.com\nhttp://localhost:5173');
    await save();
    await expect.poll(saved).toEqual(['https://shop.example.com', 'http://localhost:5173']);
    // The form shows the list as the service keeps it.
    expect(await page.$eval(textbox('Return origins'), (area) => (area as unknown as { value: string }).value)).toBe('https://shop.example.com\nhttp://localhost:5173');
    await warningGone();
    await screenshot(page, 'product-return-origins');
    expect(await seriousViolations(page)).toEqual([]);

    const checkout = (returnUrl: string) =>
      buyer.get(`/public/v1/checkout?${new URLSearchParams({ public_key: product.public_key, plan: 'pro', return_url: returnUrl })}`, { origin: null });
    expect(await checkout('https://evil.example.net/')).toMatchObject({ status: 400, body: { error: 'return_url is not allowed for this product' } });
    // A listed origin passes the check (and meets the next one: no payment provider is connected).
    expect(await checkout('https://shop.example.com/thanks')).toMatchObject({ status: 400, body: { error: 'Checkout is not available for this product' } });

    // Emptied as a person does: select all, delete.
    await click(textbox('Return origins'));
    await page.keyboard.down('Control');
    await page.keyboard.press('KeyA');
    await page.keyboard.up('Control');
    await page.keyboard.press('Backspace');
    await waitFor(warning);
    await save();
    await expect.poll(saved).toEqual([]);
    await waitFor(warning);
  });
});
