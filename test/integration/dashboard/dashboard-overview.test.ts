import { describe, expect, inject, it } from 'vitest';
import { dayOf } from '../../../shared/insights/analytics/days.js';
import { signedInDashboard, withoutChromium } from '../../support/dashboard-browser.js';
import { button, screenshot, seriousViolations, text } from '../../support/dashboard-page.js';
import { eventually, newLicense, plugin } from '../../support/licensing-fixtures.js';
import { stripeEvent } from '../../support/stripe-events.js';
import { paidCheckout, shop } from '../../support/stripe-shop.js';

/**
 * The overview, the dashboard's landing page, in a real Chromium against the local stack: after a purchase and two
 * sites' update checks, its tiles and charts show those figures, in the light and the dark theme, with no serious
 * accessibility violation. Needs Chromium: skipped without it, except on CI.
 */
const base = inject('baseUrl');

const { page } = signedInDashboard(async () => {
  const s = await shop();
  const { session } = await paidCheckout(s, 'lifetime');
  expect((await s.send(stripeEvent('checkout.session.completed', session))).body).toMatchObject({ outcome: 'processed' });
  const license = await newLicense(s.tenant, s.product.id, { seats: 3 });
  for (const [domain, version] of [['alpha.example', '1.0.0'], ['beta.example', '1.2.0']] as const) {
    expect((await plugin().post('/v1/licenses/activate', { license_key: license.licenseKey, domain }, { origin: null })).status).toBe(200);
    const query = new URLSearchParams({ slug: s.product.slug, license_key: license.licenseKey, version, domain, php: '8.3', wp: '6.7' });
    expect((await plugin().get(`/v1/wp/update-check?${query}`, { origin: null })).status).toBe(200);
  }
  // The sightings reach the overview through the usage queue.
  await eventually(() => s.tenant.get('/api/analytics/overview'), (res) => res.body.activeInstalls === 2);
  return s.tenant;
});

/** The text of the tile named `label`. */
const tile = (label: string) => page.$eval(`::-p-xpath(//div[@class="tile"][dt[text()="${label}"]]//span[@class="tile-value"])`, (el) => (el as unknown as { textContent: string }).textContent);

describe.skipIf(withoutChromium)('the overview in the dashboard', () => {
  it('lands on the overview, whose tiles and charts show the seeded figures, readable in both themes', async () => {
    await page.goto(`${base}/`, { waitUntil: 'networkidle0' });
    await page.waitForSelector(text('Revenue per day (USD)'));
    expect(new URL(page.url()).pathname).toBe('/overview');
    expect(await tile('Revenue')).toBe('$199.00');
    expect(await tile('Refunds')).toBe('$0.00');
    expect(await tile('New licenses')).toBe('2');
    expect(await tile('Active installs')).toBe('2');
    // Each chart's numbers, as its data table and bars give them.
    const today = dayOf(new Date());
    const revenueRow = await page.$eval(`::-p-xpath(//table[.//th[text()="USD"]]//tr[th[text()="${today}"]]/td)`, (el) => (el as unknown as { textContent: string }).textContent);
    expect(revenueRow).toBe('199');
    const sitesRow = await page.$eval(`::-p-xpath(//table[.//th[text()="Sites"]]//tr[th[text()="${today}"]]/td)`, (el) => (el as unknown as { textContent: string }).textContent);
    expect(sitesRow).toBe('2');
    const bars = await page.$$eval('.bars li', (items) => items.map((li) => (li as unknown as { textContent: string }).textContent));
    expect(bars).toEqual(['1.0.01', '1.2.01', '8.32', '6.72']);
    expect(await page.$$eval('button', (buttons) => buttons.filter((b) => (b as unknown as { textContent: string }).textContent.endsWith('as CSV')).length)).toBe(5);
    await screenshot(page, 'overview');
    expect(await seriousViolations(page)).toEqual([]);
    await page.locator(button('Switch to dark theme')).click();
    await page.waitForSelector('html[data-theme="dark"]');
    await screenshot(page, 'overview-dark');
    expect(await seriousViolations(page)).toEqual([]);
  }, 60_000);
});
