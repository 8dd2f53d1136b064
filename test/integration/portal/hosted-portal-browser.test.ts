import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { uniqueEmail } from '../../support/client.js';
import { withoutChromium } from '../../support/dashboard-browser.js';
import { button, launchChromium, seriousViolations, text } from '../../support/dashboard-page.js';
import { newRelease, type Tenant } from '../../support/licensing-fixtures.js';
import { activate, body, fake, shop, subscribe } from '../../support/plan-shop.js';
import { signInLink } from '../../support/portal-buyer.js';

const base = inject('baseUrl');

/**
 * A buyer in Chromium on a 375 px phone (DECISIONS §25): asks for a link, opens it from the local mail, and manages
 * two licenses, a site, a download, an invoice and a subscription; the pages are axe clean in both colour schemes.
 */
describe.skipIf(withoutChromium)('the hosted portal in a browser', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchChromium();
    page = await browser.newPage();
    await page.setViewport({ width: 375, height: 800, isMobile: true });
    page.setDefaultTimeout(15_000);
  }, 120_000);
  afterAll(() => browser?.close());

  const fitsThePhone = () => page.evaluate(() => (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement.scrollWidth);
  async function expectAccessibleInBothThemes() {
    for (const scheme of ['light', 'dark']) {
      await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: scheme }]);
      expect(await seriousViolations(page), scheme).toEqual([]);
    }
    expect(await fitsThePhone()).toBeLessThanOrEqual(375);
  }

  it('signs a buyer in by link, and lets them deactivate, download (or roll back), open an invoice, change plan, cancel and undo', { timeout: 120_000 }, async () => {
    const s = await shop();
    await body(s.tenant.put('/api/portal-settings', { enabled: true, name: 'Tier Co', accentColor: '#0b7285', supportEmail: 'help@tier.example.com' }));
    await newRelease(s.tenant as unknown as Tenant, s.product.id, { version: '2.0.0' });
    await newRelease(s.tenant as unknown as Tenant, s.product.id, { version: '2.1.0' });
    const email = uniqueEmail('buyer');
    const bought = await subscribe(s, email);
    await activate(bought.license.licenseKey, ['shop.example.com']);
    await body(s.tenant.post('/api/licenses', { productId: s.product.id, customerEmail: email, seats: 1 }), 201);

    await page.goto(`${base}/portal?public_key=${s.publicKey}`);
    await expectAccessibleInBothThemes();
    await page.locator('#email').fill(email);
    await page.locator(button('E-mail me a sign-in link')).click();
    await page.waitForSelector(text('Check your inbox'));

    const link = await signInLink(email.toLowerCase());
    await page.goto(link);
    await expectAccessibleInBothThemes();
    await Promise.all([page.waitForNavigation(), page.locator(button('Sign in')).click()]);
    await page.waitForSelector(text('Your account'));
    expect(await page.$$eval('section h3[id^="lic-"]', (headings) => headings.length)).toBe(2);
    expect(await page.content()).toContain(bought.license.licenseKey);
    await expectAccessibleInBothThemes();

    await Promise.all([page.waitForNavigation(), page.locator(button('Deactivate shop.example.com')).click()]);
    await page.waitForSelector(text('The site was deactivated'));

    const download = await page.$eval('a.button[download]', (anchor) => anchor.getAttribute('href')!);
    const file = await fetch(download);
    expect([file.status, file.headers.get('content-type')]).toEqual([200, 'application/zip']);
    // The version before it, to roll back to, folded away under the latest.
    await page.locator('summary').click();
    const rollback = await page.waitForSelector('a[aria-label="Download Tier Plugin 2.0.0"]', { visible: true });
    const older = await fetch((await rollback!.evaluate((anchor) => anchor.getAttribute('href')))!);
    expect([older.status, older.headers.get('content-type')]).toEqual([200, 'application/zip']);
    await expectAccessibleInBothThemes();

    // The checkout's payment links its invoice: opened, it is the document Stripe serves.
    const invoiceUrl = await page.$eval('a[href*="invoice-pdf"]', (anchor) => anchor.getAttribute('href')!);
    expect(await page.$eval('a[href*="invoice-pdf"]', (anchor) => anchor.textContent)).toBe('Invoice (PDF)');
    const invoiceTab = await browser.newPage();
    const invoice = await invoiceTab.goto(invoiceUrl);
    expect([invoice?.status(), invoice?.headers()['content-type']]).toEqual([200, 'application/pdf']);
    // Chromium opens it in its PDF viewer; the bytes are a PDF document.
    expect((await (await fetch(invoiceUrl)).text()).slice(0, 5)).toBe('%PDF-');
    await invoiceTab.close();

    await page.select('select[name="planId"]', s.plans.agency.id);
    await Promise.all([page.waitForNavigation(), page.locator(button('Change plan')).click()]);
    await page.waitForSelector(text('Your plan was changed'));
    expect(await fake.subscriptionUpdates(bought.subscription.id)).toHaveLength(1);

    await Promise.all([page.waitForNavigation(), page.locator(button('Cancel at period end')).click()]);
    await page.waitForSelector(button('Keep my subscription'));
    await Promise.all([page.waitForNavigation(), page.locator(button('Keep my subscription')).click()]);
    await page.waitForSelector(button('Cancel at period end'));
    await expectAccessibleInBothThemes();

    // The link was used: opened again, it says so.
    await page.goto(link);
    await page.waitForSelector(text('This sign-in link has expired or was already used'));
  });
});
