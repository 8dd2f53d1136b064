import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../../support/client.js';
import { signedInDashboard, withoutChromium } from '../../support/dashboard-browser.js';
import { button, byRole, screenshot, seriousViolations, text, textbox } from '../../support/dashboard-page.js';
import { newLicense } from '../../support/licensing-fixtures.js';
import { emailsOnceSettled } from '../../support/mail.js';

/**
 * Renewal reminders, grace days and license transfers in the dashboard (DECISIONS §15), in a real Chromium against
 * the local stack: what the forms save is what the service holds. Needs Chromium: skipped without it, except on CI.
 */
const { page, tenant, go, click, waitFor } = signedInDashboard();
let product: { id: string };
beforeAll(async () => {
  product = (await tenant.post('/api/products', { name: 'Care Plugin', productType: 'plugin' })).body;
});

describe.skipIf(withoutChromium)('renewals and transfers in the dashboard', () => {
  it("sets a product's renewal reminder days and grace days", async () => {
    await go(`/products/${product.id}`);
    await page.locator(textbox('Renewal reminder days')).fill('7, 30');
    await page.locator(byRole('spinbutton', 'Grace days after a failed payment')).fill('3');
    await click(button('Save product'));
    await waitFor(text('Saved.'));
    await expect
      .poll(async () => (await tenant.get(`/api/products/${product.id}`)).body, { timeout: 10_000 })
      .toMatchObject({ renewalReminderDays: [30, 7], graceDays: 3 });
    expect(await seriousViolations(page)).toEqual([]);
  });

  it('transfers a license to a new owner, freeing its sites, and the new owner is e-mailed the key', async () => {
    const license = await newLicense(tenant, product.id);
    expect((await tenant.post('/v1/licenses/activate', { license_key: license.licenseKey, domain: 'shop.example.com' }, { origin: null })).status).toBe(200);
    const owner = uniqueEmail('heir');
    await go(`/licenses/${license.id}`);
    await page.locator(textbox("New owner's e-mail")).fill(owner);
    await page.locator(textbox("New owner's name")).fill('Hal Heir');
    await screenshot(page, 'license-transfer');
    expect(await seriousViolations(page)).toEqual([]);
    await click(button('Transfer'));
    await waitFor(text(`Transferred to ${owner}.`));
    await expect
      .poll(async () => (await tenant.get(`/api/licenses/${license.id}`)).body, { timeout: 10_000 })
      .toMatchObject({ customerEmail: owner, customerName: 'Hal Heir', licenseKey: license.licenseKey, activatedCount: 0 });
    await waitFor(text(`License for ${owner}`));
    const [mail] = await emailsOnceSettled((email) => email.to.includes(owner), 1);
    expect(mail!.text).toContain(license.licenseKey);
  });
});
