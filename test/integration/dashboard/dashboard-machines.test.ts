import { beforeAll, describe, expect, it } from 'vitest';
import { signedInDashboard, withoutChromium } from '../../support/dashboard-browser.js';
import { button, byRole, text } from '../../support/dashboard-page.js';
import { newLicense, newProduct, plugin } from '../../support/licensing-fixtures.js';

/**
 * Machines and floating seats in the dashboard, in a real Chromium against the local stack: a license's machines with
 * their name and platform, the floating settings it saves, and a floating license's live leases. Needs Chromium:
 * skipped without it, except on CI.
 */
const { page, tenant, go } = signedInDashboard();
let productId: string;
beforeAll(async () => {
  productId = (await newProduct(tenant)).id;
});

const edge = (operation: string, body: unknown) => plugin().post(`/v1/licenses/${operation}`, body, { origin: null });

describe.skipIf(withoutChromium)('machines and floating seats in the dashboard', () => {
  it("shows a license's machines with their name and platform, and makes a license floating", async () => {
    const license = await newLicense(tenant, productId, { seats: 2 });
    expect((await edge('activate', { license_key: license.licenseKey, machine: 'fp-build-box', name: 'Build box', platform: 'linux-x64' })).status).toBe(200);
    await go(`/licenses/${license.id}`);
    await page.waitForSelector(text('Build box'));
    await page.waitForSelector(text('machine · linux-x64'));

    // Its seat must be free before the license can lend seats: the form says why not, and saves once it is.
    expect((await edge('deactivate', { license_key: license.licenseKey, machine: 'fp-build-box' })).status).toBe(200);
    await go(`/licenses/${license.id}`);
    await page.locator(byRole('checkbox', 'Floating seats')).click();
    await page.locator(button('Save changes')).click();
    // Saved, the page shows the license as the service now holds it.
    await page.waitForSelector(text('floating: 2 seats lent by leases of 15 min'));
    expect((await tenant.get(`/api/licenses/${license.id}`)).body).toMatchObject({ floating: true, leaseSeconds: 900 });
  });

  it("lists a floating license's live leases", async () => {
    const license = await newLicense(tenant, productId, { seats: 3, floating: true });
    expect((await plugin().post('/v1/licenses/leases', { license_key: license.licenseKey, machine: 'desk-in-lab-4' }, { origin: null })).status).toBe(201);
    await go(`/licenses/${license.id}`);
    await page.waitForSelector(text('Live leases'));
    await page.waitForSelector(text('desk-in-lab-4'));
    await page.waitForSelector(text('floating: 3 seats lent by leases of 15 min'));
  });
});
