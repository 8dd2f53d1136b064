import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { Client } from '../../support/client.js';
import { signedInDashboard, withoutChromium } from '../../support/dashboard-browser.js';
import { button, byRole, link, screenshot, seriousViolations, text, textbox } from '../../support/dashboard-page.js';
import { stripeTestKey } from '../../support/fake-stripe.js';
import { newLicense, newRelease, plugin } from '../../support/licensing-fixtures.js';
import { pluginZip } from '../../support/plugin-zip.js';

/**
 * A new vendor's first hour in a real Chromium against the local stack (DECISIONS §22, issue 48): the overview's
 * checklist, the short New product form, the product's Connect section waiting for its first site, checkout links and
 * coupons only once Stripe is connected, and a release version already published refused in the upload form. Each
 * new page is checked with axe in both themes. Needs Chromium: skipped without it, except on CI.
 */
const base = inject('baseUrl');
const { page, go, fill, click, waitFor, tenant } = signedInDashboard();
beforeAll(() => page.browserContext().overridePermissions(base, ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']));

/** What the journey makes along the way, read by the steps after. */
const made = { productId: '', slug: '', publicKey: '', planId: '' };

/** axe on the page as it stands, in the light theme and then the dark one (left light again). */
async function checkBothThemes(name: string) {
  await screenshot(page, name);
  expect(await seriousViolations(page), `axe on ${name}`).toEqual([]);
  await click(button('Switch to dark theme'));
  await waitFor('html[data-theme="dark"]');
  await screenshot(page, `${name}-dark`);
  expect(await seriousViolations(page), `axe on ${name} (dark)`).toEqual([]);
  await click(button('Switch to light theme'));
  await waitFor('html[data-theme="light"]');
}

/** The checklist's steps as the page shows them: label and whether it is ticked. */
const checklist = () =>
  page.$$eval('.checklist li', (items) =>
    items.map((item) => `${item.classList.contains('checklist-done') ? '✓' : '·'} ${item.querySelector(':scope > a, :scope > .checklist-label')?.textContent}`),
  );

/** Waits, without reloading, until the checklist shows `done` steps done. */
const ticked = (done: number) => waitFor(`::-p-text(${done} of 5 done)`);

/** A ZIP file on disk whose plugin header names `version`, as the upload form's file input takes it. */
async function pluginZipFile(version: string): Promise<string> {
  const path = join(mkdtempSync(join(tmpdir(), 'first-hour-')), `first-hour-${version}.zip`);
  writeFileSync(path, await pluginZip({ 'first-hour/first-hour.php': `<?php\n/**\n * Plugin Name: First Hour\n * Version: ${version}\n */\n` }));
  return path;
}

describe.skipIf(withoutChromium)('a new vendor’s first hour in the dashboard', () => {
  it('lands on an overview that is a checklist of first steps, none done', async () => {
    await go('/overview');
    await ticked(0);
    expect(await checklist()).toEqual(['· Create a product', '· Upload a release', '· Connect a plugin or app', '· Connect Stripe', '· Share a checkout link']);
    // Nothing to chart yet: no tiles of zeros, no flat charts.
    expect(await page.$('.tile')).toBeNull();
    await checkBothThemes('first-hour-overview');
  });

  it('creates a product from a short form: at most 8 fields before "Advanced", no warning before saving, a confirmation after', async () => {
    await click(link('Create a product'));
    await waitFor(textbox('Name'));
    const visibleFields = await page.$$eval('form input, form select, form textarea', (fields) =>
      fields.filter((field) => (field as unknown as { checkVisibility: () => boolean }).checkVisibility()).length,
    );
    expect(visibleFields).toBeGreaterThan(0);
    expect(visibleFields).toBeLessThanOrEqual(8);
    expect(await page.$('.banner-warning')).toBeNull();
    // Every select's text fits its box once the advanced fields are open.
    await click('summary::-p-text(Advanced)');
    const cutOff = await page.$$eval('form select', (selects) =>
      selects
        .map((select) => select as unknown as { scrollWidth: number; clientWidth: number; selectedOptions: { text: string }[]; options: { text: string }[] })
        .filter((select) => {
          // The widest option, measured in the select's own font.
          const canvas = (globalThis as any).document.createElement('canvas').getContext('2d');
          canvas.font = (globalThis as any).getComputedStyle(select).font;
          const widest = Math.max(...Array.from(select.options).map((option) => canvas.measureText(option.text).width));
          return widest > select.clientWidth - 24;
        })
        .map((select) => select.selectedOptions[0]?.text),
    );
    expect(cutOff).toEqual([]);
    expect(await page.$('.banner-warning')).toBeNull();
    await checkBothThemes('first-hour-new-product');
    await fill(textbox('Name'), 'First Hour');
    await click(button('Create product'));
    await waitFor(text('First Hour is created.'));
    made.productId = new URL(page.url()).pathname.split('/')[2]!;
    expect(made.productId).toMatch(/^prd_/);
  });

  it('shows how to connect a plugin with this product’s values, and the first site as soon as it activates', async () => {
    const product = (await tenant.get(`/api/products/${made.productId}`)).body as { slug: string; public_key: string; signingKeys: { keyId: string; publicKey: string }[] };
    Object.assign(made, { slug: product.slug, publicKey: product.public_key });
    await waitFor(text('Waiting for the first activation'));
    const snippets = await page.$$eval('code[data-snippet]', (codes) => codes.map((code) => [code.getAttribute('data-snippet'), code.textContent ?? '']));
    expect(snippets.map(([id]) => id)).toEqual(['wordpress', 'php', 'javascript', 'curl']);
    for (const [id, code] of snippets) {
      expect(code, id!).toContain(product.public_key);
      expect(code, id!).toContain(base);
      if (id !== 'curl') expect(code, id!).toContain(product.slug);
      if (id !== 'curl') expect(code, id!).toContain(product.signingKeys[0]!.publicKey);
    }
    await click(button('Copy the WordPress snippet'));
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(snippets[0]![1]);
    await checkBothThemes('first-hour-connect');

    // A plugin activates, from a script: the page, left as it is, names the site.
    const navigations: string[] = [];
    page.on('framenavigated', (frame) => navigations.push(frame.url()));
    const license = await newLicense(tenant, made.productId);
    const activated = await plugin().post('/v1/licenses/activate', { license_key: license.licenseKey, domain: 'first-customer.example.com', product_slug: made.slug }, { origin: null });
    expect(activated.status, activated.text).toBe(200);
    await waitFor('.first-activation ::-p-text(first-customer.example.com)');
    expect(navigations).toEqual([]);
  });

  it('offers no checkout link and no coupon form before Stripe is connected; a buyer’s browser is told why in a page', async () => {
    const plan = await tenant.post(`/api/products/${made.productId}/plans`, { name: 'Pro', billingCycle: 'yearly', price: 49, currency: 'usd', siteLimit: 3 });
    expect(plan.status, plan.text).toBe(201);
    made.planId = plan.body.id;
    await go(`/products/${made.productId}/plans`);
    await waitFor(text('Checkout links appear here once a payment provider is connected'));
    expect(await page.$(button('Copy checkout link'))).toBeNull();
    await checkBothThemes('first-hour-plans-unpaid');
    await go('/coupons');
    await waitFor(text('Coupons are Stripe promotion codes'));
    expect(await page.$(textbox('Code'))).toBeNull();
    await checkBothThemes('first-hour-coupons-unpaid');

    // The link a vendor might have copied anyway, opened by a buyer: a page in words, not JSON.
    const checkout = `/public/v1/checkout/${made.planId.replace(/^pln_/, 'plan_')}?public_key=${made.publicKey}`;
    const buyer = await page.browser().newPage();
    try {
      const answer = await buyer.goto(`${base}${checkout}`);
      expect(answer!.status()).toBe(400);
      expect(answer!.headers()['content-type']).toMatch(/^text\/html/);
      expect(await buyer.$eval('body', (body) => body.textContent)).toContain('cannot be bought online yet');
    } finally {
      await buyer.close();
    }
  });

  it('refuses a version already published in the upload form, before uploading, and says the service’s 409 in words', async () => {
    await newRelease(tenant, made.productId, { version: '1.0.0' });
    await go(`/products/${made.productId}/releases`);
    await waitFor(text('Upload a release'));
    // The version, left blank, is read from the ZIP the moment it is chosen.
    const input = await page.waitForSelector('input[type=file]');
    await input!.uploadFile(await pluginZipFile('1.0'));
    await waitFor(text('Release 1.0.0 already exists: give this one a higher version, or upload it as a draft'));
    await click(button('Upload release'));
    await checkBothThemes('first-hour-release-duplicate');
    const releases = async () => ((await tenant.get(`/api/products/${made.productId}/releases`)).body.items as unknown[]).length;
    expect(await releases()).toBe(1);

    // Published meanwhile elsewhere: the form does not know, the service answers 409, the form says it at the field.
    await newRelease(tenant, made.productId, { version: '2.0.0' });
    await fill(textbox('Version'), '2.0.0');
    await click(button('Upload release'));
    await waitFor(text('Release 2.0.0 already exists: give this one a higher version'));
    expect(await page.$('.banner-error')).toBeNull();
    expect(await releases()).toBe(2);

    // A new version goes through, read from the ZIP.
    // Cleared as a person does (a locator's fill with nothing leaves the field as it was).
    await click(textbox('Version'));
    await page.keyboard.down('Control');
    await page.keyboard.press('KeyA');
    await page.keyboard.up('Control');
    await page.keyboard.press('Backspace');
    await input!.uploadFile(await pluginZipFile('2.1.0'));
    await waitFor(text('Blank: 2.1.0, as the ZIP names it'));
    await click(button('Upload release'));
    await waitFor(text('Release 2.1.0 added'));
    expect(await releases()).toBe(3);
  });

  it('ticks the checklist as each step happens, without a reload, and leaves it once all are done', async () => {
    await go('/overview');
    // A product, a release and a first activation are there already.
    await ticked(3);
    expect(await checklist()).toEqual(['✓ Create a product', '✓ Upload a release', '✓ Connect a plugin or app', '· Connect Stripe', '· Share a checkout link']);
    const webhookSecret = `whsec_${Buffer.from('first-hour').toString('base64')}`;
    expect((await tenant.put('/api/payment-provider', { provider: 'stripe', secretKey: stripeTestKey(), webhookSecret })).status).toBe(200);
    await ticked(4);
    await checkBothThemes('first-hour-overview-ticked');

    // Checkout links are offered now; a buyer opening one is the last step.
    await go(`/products/${made.productId}/plans`);
    await waitFor(button('Copy checkout link'));
    await click(button('Copy checkout link'));
    const copied = String(await page.evaluate('navigator.clipboard.readText()'));
    await go('/overview');
    await ticked(4);
    const opened = await new Client(base).get(new URL(copied).pathname + new URL(copied).search, { origin: null });
    expect(opened.status, opened.text).toBe(303);
    await page.waitForSelector('.checklist', { hidden: true, timeout: 15_000 });
    await waitFor(byRole('heading', 'Overview'));
  });
});
