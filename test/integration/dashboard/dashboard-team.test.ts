import { describe, expect, it } from 'vitest';
import { newTenant, uniqueEmail } from '../../support/client.js';
import { dashboardBrowser, withoutChromium } from '../../support/dashboard-browser.js';
import { button, link, screenshot, seriousViolations, text, textbox } from '../../support/dashboard-page.js';
import { newLicense, newProduct } from '../../support/licensing-fixtures.js';
import { invitationToken, verifiedUser } from '../../support/team.js';

/**
 * The team in the dashboard, in Chromium against the local stack: the owner invites from the team page, the invited
 * support member accepts from the e-mailed link and then sees only what a support role may use: the controls of its
 * desk (a license's revoke, an activation's deactivate, a customer's details and export), none of the others. Pages
 * are waited for by what they show, not by the network going quiet. Skipped without Chromium, except on CI.
 */
const dashboard = dashboardBrowser();
const { page, signInAs } = dashboard;
const go = (path: string) => dashboard.go(path, 'domcontentloaded');
const shows = async (value: string) => (await page.$(value)) !== null;

describe.skipIf(withoutChromium)('the team in the dashboard', () => {
  it('lets the owner invite, and shows a support member only what the role may use', async () => {
    const owner = await newTenant();
    const [product, member, customer] = await Promise.all([
      newProduct(owner),
      verifiedUser(uniqueEmail('support-ui')),
      owner.post('/api/customers', { email: uniqueEmail('customer'), firstName: 'Casey' }),
    ]);
    expect(customer.status, customer.text).toBe(201);
    const license = await newLicense(owner, product.id);
    const activated = await owner.post('/v1/licenses/activate', { license_key: license.licenseKey, domain: 'example.com' }, { origin: null });
    expect(activated.status, activated.text).toBe(200);

    await signInAs(owner);
    await go('/team');
    await page.locator(textbox('E-mail')).fill(member.email);
    await page.select('select', 'support');
    await page.locator(button('Send invitation')).click();
    await page.waitForSelector(text(`Invitation sent to ${member.email}.`));
    await screenshot(page, 'team-invited');
    expect(await seriousViolations(page), 'axe on the team page').toEqual([]);

    const token = await invitationToken(member.email);
    await signInAs(member);
    await go(`/accept-invitation?token=${token}`);
    await page.locator(button('Accept the invitation')).click();
    await page.waitForFunction("location.pathname === '/products'");
    await page.waitForSelector(`select option[value="${owner.userId}"]`);

    // Support: the tenant's products, but no "New product", no payments, no audit log, no invite form.
    await page.waitForSelector('table');
    expect(await shows(link('New product'))).toBe(false);
    expect(await shows(link('Licenses'))).toBe(true);
    await page.locator(button('Sales')).click();
    await page.waitForSelector(link('Coupons'));
    expect(await shows(link('Payments'))).toBe(false);
    await page.locator(button('Settings')).click();
    await page.waitForSelector(link('Team'));
    expect(await shows(link('Audit log'))).toBe(false);
    await page.locator(link('Team')).click();
    await page.waitForSelector(text(member.email));
    expect(await shows(button('Send invitation'))).toBe(false);
    expect(await shows(button('Remove'))).toBe(false);
    await screenshot(page, 'team-support-view');

    // A product: its keys, plans and releases, without the controls that make, change or delete them.
    await go(`/products/${product.id}`);
    await page.waitForSelector(text('Signing keys'));
    for (const control of [button('Replace public key'), button('Create signing key'), button('Rotate signing key'), button('Save product'), button('Delete product')]) {
      expect(await shows(control), control).toBe(false);
    }
    await page.locator(link('Plans')).click();
    await page.waitForSelector(text('No plans yet'));
    expect(await shows(button('Create plan'))).toBe(false);
    await page.locator(link('Releases')).click();
    await page.waitForSelector(text('No releases'));
    expect(await shows(button('Upload release'))).toBe(false);
    // A license: suspend, revoke, regenerate, deactivate and edit are the desk's; deleting is not.
    await go(`/licenses/${license.id}`);
    await page.waitForSelector(button('Revoke'));
    for (const control of [button('Suspend'), button('Regenerate key'), button('Deactivate'), button('Save changes')]) expect(await shows(control), control).toBe(true);
    expect(await shows(button('Delete'))).toBe(false);
    // A customer: details and export are the desk's; erasing, deleting and new licenses are not.
    await go(`/customers/${customer.body.id}`);
    await page.waitForSelector(button('Export personal data'));
    expect(await shows(button('Save customer'))).toBe(true);
    for (const control of [button('Erase personal data'), button('Delete customer'), link('New license for this customer')]) expect(await shows(control), control).toBe(false);
    // A page the role cannot use, opened by its address, says so rather than showing a form the service refuses.
    for (const path of ['/licenses/new', '/products/new', '/payment-provider', '/audit-log']) {
      await go(path);
      await page.waitForSelector(text('Your role does not allow this.'));
      expect(await shows('form'), `${path} shows a form`).toBe(false);
    }
  }, 120_000);
});
