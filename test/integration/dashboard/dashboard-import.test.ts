import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { signedInDashboard, withoutChromium } from '../../support/dashboard-browser.js';
import { button, byRole, screenshot, seriousViolations, text } from '../../support/dashboard-page.js';
import { plugin } from '../../support/licensing-fixtures.js';

/**
 * The import page in a real Chromium against the local stack: pick the product and the format, upload the export,
 * read the dry run's counts, bad rows and warnings by row number (nothing written), then import the same file for real and find
 * its kept keys working. Needs Chromium: skipped without it, except on CI.
 */
const base = inject('baseUrl');
const BAD_ROWS = fileURLToPath(new URL('../../fixtures/imports/bad-rows.csv', import.meta.url));

const { page, tenant } = signedInDashboard();
let product: { id: string; name: string };
beforeAll(async () => {
  product = (await tenant.post('/api/products', { name: `Moved ${Date.now()}`, productType: 'plugin' })).body;
});

const combobox = (name: string) => byRole('combobox', name);
const count = async (name: string) => page.$eval(`[data-count="${name}"]`, (cell) => Number(cell.textContent));
const licenses = async () => (await tenant.get(`/api/licenses?product_id=${product.id}`)).body.pagination.total as number;

describe.skipIf(withoutChromium)('the import page', () => {
  it('shows a dry run with its bad rows, then imports the same file, keys kept', async () => {
    await page.goto(`${base}/imports`, { waitUntil: 'networkidle0' });
    await page.locator(button('Settings')).click();
    await page.locator(byRole('link', 'Import')).click();
    await page.waitForSelector(text('Import licenses'));
    // Nothing chosen: the form says what is missing and sends nothing.
    await page.locator(button('Start dry run')).click();
    await page.waitForSelector(text('Choose the product the licenses belong to'));

    await (await page.$(combobox('Product')))!.select(product.id);
    await (await page.$(combobox('Format')))!.select('csv');
    const input = await page.$('input[type="file"]');
    await input!.uploadFile(BAD_ROWS);
    await page.locator(button('Start dry run')).click();

    await page.waitForSelector(text('Import these rows'));
    const counts = ['licenses', 'customers', 'activations', 'skipped', 'errors', 'warnings'];
    expect(await Promise.all(counts.map(count))).toEqual([3, 1, 3, 1, 6, 1]);
    const table = (label: string) =>
      page.$$eval(`[aria-label="${label}"] tbody tr`, (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
    const rows = await table('Bad rows');
    expect(rows[0]).toEqual(['3', 'license key must be 8 to 128 printable characters without spaces']);
    expect(rows.map(([row]) => Number(row))).toEqual([3, 4, 5, 6, 7, 9]);
    // Two sites in one seat: imported with both, its seats raised (DECISIONS §27), and said so.
    expect(await table('Warnings')).toEqual([['8', '2 active sites are more than its 1 seat: seats raised to 2, so every one keeps working']]);
    expect(await licenses()).toBe(0);
    await screenshot(page, 'import-dry-run');
    expect(await seriousViolations(page)).toEqual([]);

    await page.locator(button('Import these rows')).click();
    await page.waitForFunction("document.querySelector('#import-heading')?.textContent === 'Import done'", { timeout: 60_000 });
    expect(await count('licenses')).toBe(3);
    expect(await licenses()).toBe(3);
    const validate = await plugin().post('/v1/licenses/validate', { license_key: 'BAD-ROWS-GOOD-0001' }, { origin: null });
    expect(validate.body.valid, validate.text).toBe(true);
  });
});
