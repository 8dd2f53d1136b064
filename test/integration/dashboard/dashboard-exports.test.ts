import { describe, expect, inject, it } from 'vitest';
import { signedInDashboard, withoutChromium } from '../../support/dashboard-browser.js';
import { button, screenshot, seriousViolations, text } from '../../support/dashboard-page.js';
import { newLicense, newProduct, plugin } from '../../support/licensing-fixtures.js';

/**
 * The account export and a customer's data export and erasure in the dashboard, in a real Chromium against the local
 * stack: the export runs to a download link that serves the file; erasing asks first, then leaves the customer with
 * the erased address and the license working. Needs Chromium: skipped without it, except on CI.
 */
const base = inject('baseUrl');
const { page, tenant } = signedInDashboard();

describe.skipIf(withoutChromium)('exports and erasure in the dashboard', () => {
  it('exports the account as JSON Lines to a link that serves the file', async () => {
    const product = await newProduct(tenant);
    const license = await newLicense(tenant, product.id, { customerEmail: 'exported@example.com' });
    await page.goto(`${base}/account`, { waitUntil: 'networkidle0' });
    await page.locator(button('Export as JSON Lines')).click();
    const link = await page.waitForSelector('a[download]::-p-text(Download the export)', { timeout: 30_000 });
    const href = await link!.evaluate((a) => (a as unknown as { href: string }).href);
    const file = await (await fetch(href)).text();
    const records = file.trim().split('\n').map((line) => JSON.parse(line) as { type: string; licenseKey?: string });
    expect(records[0]!.type).toBe('export');
    expect(records.filter((record) => record.type === 'license').map((record) => record.licenseKey)).toEqual([license.licenseKey]);
    await screenshot(page, 'account-export');
    expect(await seriousViolations(page)).toEqual([]);
  }, 60_000);

  it('asks before erasing a customer, then shows them erased with their license still working', async () => {
    const product = await newProduct(tenant);
    const customer = (await tenant.post('/api/customers', { email: 'erase-me@example.com', firstName: 'Erin', lastName: 'Rased' })).body;
    const license = await newLicense(tenant, product.id, { customerEmail: 'erase-me@example.com', customerName: 'Erin Rased' });
    await page.goto(`${base}/customers/${customer.id}`, { waitUntil: 'networkidle0' });
    await page.waitForSelector(text('Personal data'));

    await page.locator(button('Export personal data')).click();
    await page.waitForSelector(text('Exported.'));

    // Cancelled: nothing changes.
    await page.locator(button('Erase personal data')).click();
    await page.waitForSelector('dialog[open]');
    await screenshot(page, 'customer-erase-confirm');
    await page.locator('dialog[open] button[value="cancel"]').click();
    expect((await tenant.get(`/api/customers/${customer.id}`)).body.email).toBe('erase-me@example.com');

    await page.locator(button('Erase personal data')).click();
    await page.locator('dialog[open] button[value="confirm"]').click();
    await page.waitForSelector(text('Personal data erased.'));
    const erased = (await tenant.get(`/api/customers/${customer.id}`)).body;
    expect([erased.email, erased.firstName, erased.lastName]).toEqual([`erased-${customer.id}@invalid`, null, null]);
    const validated = await plugin().post('/v1/licenses/validate', { license_key: license.licenseKey }, { origin: null });
    expect(validated.body.valid, validated.text).toBe(true);
    // Reloaded, the page knows the customer is erased.
    await page.reload({ waitUntil: 'networkidle0' });
    await page.waitForSelector(text('Personal data erased.'));
    expect(await seriousViolations(page)).toEqual([]);
  });
});
