import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'puppeteer-core';
import { beforeAll, describe, expect, it } from 'vitest';
import { dayOf } from '../../../shared/insights/analytics/days.js';
import { unverifiedTenant, uniqueEmail } from '../../support/client.js';
import { signedInDashboard, withoutChromium } from '../../support/dashboard-browser.js';
import { button, byRole, link, screenshot, seriousViolations, text, textbox } from '../../support/dashboard-page.js';
import { newLicense, newProduct, type License, type Product } from '../../support/licensing-fixtures.js';
import { stripeEvent } from '../../support/stripe-events.js';
import { created, paidCheckout, shop } from '../../support/stripe-shop.js';

/**
 * The dashboard's polish of issue 48, in Chromium against the local stack: the audit log in sentences, a header that
 * fits one row at 1280 px on every page, "Saved." after every in-place save, webhook events grouped and described,
 * roles explained, the import page keeping its work and speaking in sentences, the calm verification notice, country
 * and time zone lists, and revenue per currency; axe clean in both themes on each. Skipped without Chromium, except on CI.
 */
const dashboard = signedInDashboard();
const { page, tenant, go, click, signInAs } = dashboard;
const combobox = (name: string) => byRole('combobox', name);
const textOf = (selector: string) => page.$eval(selector, (el) => (el as unknown as { textContent: string }).textContent.replace(/\s+/g, ' ').trim());

let product: Product;
let license: License;
let customerId: string;
let webhookId: string;
beforeAll(async () => {
  product = await newProduct(tenant);
  license = await newLicense(tenant, product.id, { seats: 3 });
  const [customer, webhook] = await Promise.all([
    created(tenant.post('/api/customers', { email: uniqueEmail('customer'), firstName: 'Casey' })),
    created(tenant.post('/api/webhooks', { name: 'Orders', url: 'https://example.com/hooks', events: ['license.created'] })),
  ]);
  customerId = customer.id;
  webhookId = webhook.id;
}, 60_000);

/** axe finds nothing serious in the light theme, then in the dark one (and the page is put back to light). */
async function axeInBothThemes(name: string) {
  expect(await seriousViolations(page), `axe, light: ${name}`).toEqual([]);
  await click(button('Switch to dark theme'));
  await page.waitForSelector('html[data-theme="dark"]');
  await screenshot(page, `${name}-dark`);
  expect(await seriousViolations(page), `axe, dark: ${name}`).toEqual([]);
  await click(button('Switch to light theme'));
  await page.waitForSelector('html[data-theme="light"]');
}

/** The page does not scroll sideways, and the header's parts sit on one row. */
async function fitsOneRow(target: Page) {
  return target.evaluate(() => {
    const { document, innerWidth } = globalThis as unknown as { document: any; innerWidth: number };
    const header = document.querySelector('.topbar');
    const parts = header ? [...header.children].map((part: any) => part.getBoundingClientRect()) : [];
    const oneRow = parts.every((box: any) => box.top < parts[0].bottom && parts[0].top < box.bottom);
    return { scroll: document.documentElement.scrollWidth <= innerWidth, oneRow, header: Boolean(header) };
  });
}

describe.skipIf(withoutChromium)('the dashboard, polished (issue 48)', () => {
  it('reads the audit log as sentences whose ids link to their things, without sideways scroll or broken tokens', async () => {
    const changed = await tenant.put(`/api/licenses/${license.id}`, { seats: 5 });
    expect(changed.status, changed.text).toBe(200);
    await go('/audit-log');
    const sentence = '//div[@class="audit-sentence"]/p[contains(., "changed the seats of license")]';
    await page.waitForSelector(`::-p-xpath(${sentence}//a)`);
    expect(await textOf(`::-p-xpath(${sentence})`)).toBe(`Dev changed the seats of license ${license.licenseKey} from 3 to 5.`);
    expect(await page.$eval(`::-p-xpath(${sentence}//a)`, (a) => a.getAttribute('href'))).toBe(`/licenses/${license.id}`);
    // The creation names its license too, and lists what it set under Details.
    expect(await page.$(text(`Dev created license ${license.licenseKey}.`))).not.toBeNull();
    const layout = await page.evaluate(() => {
      const { document, innerWidth } = globalThis as unknown as { document: any; innerWidth: number };
      const tokens = [...document.querySelectorAll('.audit-sentence code, .audit-sentence a')];
      return { scroll: document.documentElement.scrollWidth <= innerWidth, table: document.querySelector('.table-wrap').scrollWidth <= document.querySelector('.table-wrap').clientWidth, broken: tokens.filter((token: any) => token.getClientRects().length > 1).map((token: any) => token.textContent) };
    });
    expect(layout).toEqual({ scroll: true, table: true, broken: [] });
    await screenshot(page, 'audit-sentences');
    await axeInBothThemes('audit-sentences');
    await click(link(license.licenseKey));
    await page.waitForSelector(button('Save changes'));
    expect(new URL(page.url()).pathname).toBe(`/licenses/${license.id}`);
  }, 60_000);

  it('fits the header on one row at 1280 px on every page, with menus a keyboard opens and closes', async () => {
    const paths = [
      '/overview', '/products', '/products/new', `/products/${product.id}`, `/products/${product.id}/releases`, `/products/${product.id}/plans`,
      `/products/${product.id}/analytics`, '/licenses', '/licenses/new', `/licenses/${license.id}`, '/customers', '/customers/new',
      `/customers/${customerId}`, '/webhooks', '/webhooks/new', `/webhooks/${webhookId}`, '/coupons', '/payment-provider', '/account',
      '/imports', '/team', '/audit-log', '/no-such-page',
    ];
    expect(await page.evaluate(() => (globalThis as unknown as { innerWidth: number }).innerWidth)).toBe(1280);
    for (const path of paths) {
      await go(path);
      await page.waitForSelector('main h1');
      expect(await fitsOneRow(page), path).toEqual({ scroll: true, oneRow: true, header: true });
    }

    // The Settings menu: a button that says whether it is open; Enter opens it, ArrowDown walks its links, Escape closes.
    await go('/overview');
    const settings = button('Settings');
    expect(await page.$eval(settings, (b) => b.getAttribute('aria-expanded'))).toBe('false');
    await page.focus(settings);
    await page.keyboard.press('Enter');
    expect(await page.$eval(settings, (b) => b.getAttribute('aria-expanded'))).toBe('true');
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(() => (globalThis as unknown as { document: any }).document.activeElement?.textContent === 'Account');
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(() => (globalThis as unknown as { document: any }).document.activeElement?.textContent === 'Team');
    await screenshot(page, 'header-menu-open');
    expect(await seriousViolations(page), 'axe with the menu open').toEqual([]);
    await page.keyboard.press('Escape');
    expect(await page.$eval(settings, (b) => b.getAttribute('aria-expanded'))).toBe('false');
    expect(await page.evaluate(() => (globalThis as unknown as { document: any }).document.activeElement?.textContent)).toContain('Settings');
    // Enter on a link of the menu opens its page and closes the menu.
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(() => (globalThis as unknown as { document: any }).document.activeElement?.textContent === 'Account');
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(() => (globalThis as unknown as { document: any }).document.activeElement?.textContent === 'Team');
    await page.keyboard.press('Enter');
    await page.waitForFunction("location.pathname === '/team'");
    expect(await page.$eval(settings, (b) => b.getAttribute('aria-expanded'))).toBe('false');
  }, 120_000);

  it('says "Saved." after saving a license, a customer (country and time zone from lists) and a profile', async () => {
    await go(`/licenses/${license.id}`);
    await page.locator(textbox('Seats')).fill('7');
    await click(button('Save changes'));
    await page.waitForSelector(text('Saved.'));
    expect((await tenant.get(`/api/licenses/${license.id}`)).body.seats).toBe(7);

    await go(`/customers/${customerId}`);
    const country = await page.$(combobox('Country'));
    expect(await country!.$eval('option[value="NL"]', (option) => option.textContent)).toBe('Netherlands (NL)');
    await country!.select('NL');
    // A zone the list does not have is refused before anything is sent, in words.
    await page.locator(byRole('combobox', 'Time zone')).fill('Mars/Phobos');
    await click(button('Save customer'));
    await page.waitForSelector(text('Choose a time zone from the list, such as Europe/Amsterdam'));
    await page.locator(byRole('combobox', 'Time zone')).fill('Europe/Amsterdam');
    await click(button('Save customer'));
    await page.waitForSelector(text('Saved.'));
    expect((await tenant.get(`/api/customers/${customerId}`)).body).toMatchObject({ country: 'NL', timezone: 'Europe/Amsterdam' });
    await screenshot(page, 'customer-saved');
    await axeInBothThemes('customer-saved');

    await go('/account');
    await page.locator(textbox('Name')).fill('Dev Vendor');
    await click(button('Save profile'));
    await page.waitForSelector(text('Saved.'));
  }, 90_000);

  it('groups the webhook events and says what each is', async () => {
    await go('/webhooks/new');
    await page.waitForSelector(button('Create webhook'));
    const groups = await page.$$eval('.event-group > legend', (legends) => legends.map((legend) => legend.textContent));
    expect(groups).toEqual(['Licenses', 'Sites and machines', 'Customers', 'Payments', 'Subscriptions', 'Releases', 'Imports']);
    const described = await page.$eval(byRole('checkbox', 'subscription.past_due'), (box) => {
      const hint = (globalThis as unknown as { document: any }).document.getElementById(box.getAttribute('aria-describedby'));
      return [box.closest('fieldset')?.querySelector('legend')?.textContent, hint?.textContent];
    });
    expect(described).toEqual(['Subscriptions', 'A renewal payment fails; the license stays active through its grace period.']);
    await screenshot(page, 'webhook-events');
    await axeInBothThemes('webhook-events');
  }, 60_000);

  it('says what each role may do where a role is chosen', async () => {
    await go('/team');
    const role = await page.$(combobox('Role'));
    await role!.select('support');
    const hint = await role!.evaluate((select) => (globalThis as unknown as { document: any }).document.getElementById(select.getAttribute('aria-describedby'))?.textContent);
    expect(hint).toBe('Reads everything but secrets; updates, revokes, regenerates and transfers licenses, deactivates sites, updates and exports customers.');
    await role!.select('viewer');
    await page.waitForSelector(text('Reads everything but secrets; changes nothing.'));
    expect(await page.$(text('What each role may do'))).not.toBeNull();
    await screenshot(page, 'team-roles');
    await axeInBothThemes('team-roles');
  }, 60_000);

  it('keeps the import page’s work when left and come back, and says in words why a dry run failed', async () => {
    const zip = join(tmpdir(), `not-a-csv-${Date.now()}.csv`);
    writeFileSync(zip, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00, 0xff, 0xfe, 0x9c, 0x00, 0x0a, 0x41]));
    await go('/imports');
    await (await page.$(combobox('Product')))!.select(product.id);
    await (await page.$(combobox('Format')))!.select('csv');
    await (await page.$('input[type="file"]'))!.uploadFile(zip);
    await click(button('Start dry run'));
    await page.waitForFunction("document.querySelector('#import-heading')?.textContent === 'Dry run failed'", { timeout: 30_000 });
    expect(await textOf('label[for="import-progress"]')).toBe('Stopped: no row was read');
    const failure = await textOf('.card [role="alert"]');
    expect(failure).toBe('The file is not a text file (a spreadsheet or an archive, perhaps): export the licenses as CSV, or the account as JSON Lines, and choose that file');
    await axeInBothThemes('import-failed');

    // Away and back (through the menu, as a person would): the choices, the file and the dry run are still there.
    await click(button('Settings'));
    await click(link('Account'));
    await page.waitForSelector(button('Save profile'));
    await click(button('Settings'));
    await click(link('Import'));
    await page.waitForFunction("document.querySelector('#import-heading')?.textContent === 'Dry run failed'");
    expect(await page.$eval(combobox('Product'), (select) => (select as unknown as { value: string }).value)).toBe(product.id);
    expect(await page.$eval(combobox('Format'), (select) => (select as unknown as { value: string }).value)).toBe('csv');
    expect(await page.$eval('input[type="file"]', (input) => (input as unknown as { files: { name: string }[] }).files[0]?.name)).toMatch(/^not-a-csv-/);
    // A reload keeps the import too (the tab's storage), though the file must be chosen again.
    await page.reload({ waitUntil: 'networkidle0' });
    await page.waitForFunction("document.querySelector('#import-heading')?.textContent === 'Dry run failed'");
    expect(await page.$eval(combobox('Product'), (select) => (select as unknown as { value: string }).value)).toBe(product.id);
  }, 90_000);

  it('shows revenue per currency, one line each, never added together', async () => {
    const s = await shop();
    const eur = await created(s.tenant.post(`/api/products/${s.product.id}/plans`, { name: 'Euro', billingCycle: 'lifetime', price: 199, currency: 'eur', siteLimit: 1 }));
    for (const [plans, currency] of [[s.plans, 'usd'], [{ ...s.plans, lifetime: eur }, 'eur']] as const) {
      const { session } = await paidCheckout({ ...s, plans }, 'lifetime');
      expect((await s.send(stripeEvent('checkout.session.completed', { ...session, currency }))).body).toMatchObject({ outcome: 'processed' });
    }
    const overview = (await s.tenant.get('/api/analytics/overview')).body;
    expect(overview.revenueByCurrency.map((c: { currency: string; total: number }) => [c.currency, c.total])).toEqual([['EUR', 199], ['USD', 199]]);
    expect(overview.revenue.total).toBe(199);

    await signInAs(s.tenant);
    await go('/overview');
    await page.waitForSelector(text('Revenue per day (EUR, USD)'));
    const today = dayOf(new Date());
    const cells = await page.$$eval(`::-p-xpath(//table[.//th[text()="EUR"]]//tr[th[text()="${today}"]]/td)`, (tds) => tds.map((td) => td.textContent));
    expect(cells).toEqual(['199', '199']);
    expect(await page.$$eval('.legend li', (items) => items.map((item) => item.textContent))).toEqual(['EUR', 'USD']);
    await screenshot(page, 'overview-currencies');
    await axeInBothThemes('overview-currencies');
    await signInAs(tenant);
  }, 90_000);

  it('explains calmly what confirming the address does', async () => {
    const unverified = await unverifiedTenant();
    await signInAs(unverified);
    await go('/products');
    await page.waitForSelector(text('Confirm your e-mail address: we sent a link to'));
    const notice = await textOf('.verification-notice');
    expect(notice).toContain('Confirming shows the address is yours.');
    expect(notice).not.toMatch(/anyone|takes over/i);
    await axeInBothThemes('verification-notice');
    await signInAs(tenant);
  }, 60_000);
});
