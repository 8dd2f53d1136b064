import { beforeAll, describe, expect, it } from 'vitest';
import { uniqueEmail } from '../../support/client.js';
import { signedInDashboard, withoutChromium } from '../../support/dashboard-browser.js';
import { button, seriousViolations, text } from '../../support/dashboard-page.js';
import { eventually, newLicense, newProduct, type License } from '../../support/licensing-fixtures.js';

/**
 * "View as customer" (issue 51) in a real Chromium against the local stack: the button on a customer's page opens the
 * hosted portal as that customer in a new tab, read-only. Needs Chromium: skipped without it, except on CI.
 */
const { page, tenant, go } = signedInDashboard();
const email = uniqueEmail('buyer');
let license: License;
let customerId: string;
beforeAll(async () => {
  license = await newLicense(tenant, (await newProduct(tenant)).id, { customerEmail: email });
  customerId = (await tenant.get(`/api/customers?search=${encodeURIComponent(email)}`)).body.items[0].id;
});

describe.skipIf(withoutChromium)('"View as customer" in the dashboard', () => {
  it('is not shown while the portal is off', async () => {
    await go(`/customers/${customerId}`);
    await page.waitForSelector(text(email));
    expect(await page.$(button('View as customer'))).toBeNull();
  });

  it("opens the customer's portal in a new tab, with the preview banner and the customer's license key", async () => {
    expect((await tenant.put('/api/portal-settings', { enabled: true, name: 'Preview Co' })).status).toBe(200);
    await go(`/customers/${customerId}`);
    const opened = page.browser().waitForTarget((target) => target.url().includes('/portal?public_key='));
    await page.locator(button('View as customer')).click();
    const tab = (await (await opened).page())!;
    try {
      await tab.waitForSelector(text(`Preview: you are viewing the portal as ${email}. Changes are disabled.`));
      expect(await tab.content()).toContain(license.licenseKey);
      expect(await tab.$('form[action$="/deactivate"]')).toBeNull();
      for (const scheme of ['light', 'dark']) {
        await tab.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
        expect(await seriousViolations(tab), scheme).toEqual([]);
      }
    } finally {
      await tab.close();
    }
  });

  it("shows the service's refusal when the preview cannot be made, and closes the tab it opened", async () => {
    await go(`/customers/${customerId}`);
    // Turned off after the page loaded: the button is still there, the service refuses.
    expect((await tenant.put('/api/portal-settings', { enabled: false })).status).toBe(200);
    const tabsBefore = (await page.browser().pages()).length;
    await page.locator(button('View as customer')).click();
    await page.waitForSelector(text('The customer portal is off: turn it on first'));
    // The tab opened in the click is closed again.
    expect((await eventually(() => page.browser().pages(), (pages) => pages.length === tabsBefore)).length).toBe(tabsBefore);
  });
});
