import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { signedInDashboard, withoutChromium } from '../../support/dashboard-browser.js';
import { button, byRole, link, screenshot, seriousViolations, text, textbox } from '../../support/dashboard-page.js';
import { newLicense, zipBytes } from '../../support/licensing-fixtures.js';

/**
 * Release channels in the dashboard, in a real Chromium against the local stack: channel and staged rollout on upload
 * and edit (the slider says what share of sites gets the release), a plan's and a license's channel, and the product's
 * updates after expiry; what the forms save is what the service holds. Needs Chromium: skipped without it, except on CI.
 */
const { page, tenant, go, click, waitFor } = signedInDashboard();
let product: { id: string };
beforeAll(async () => {
  product = (await tenant.post('/api/products', { name: 'Channel Plugin', productType: 'plugin' })).body;
});

const combobox = (name: string) => byRole('combobox', name);
const releases = async () => (await tenant.get(`/api/products/${product.id}/releases`)).body.items as { version: string; channel: string; rolloutPercent: number }[];

/** Moves a range input with the keyboard, as a person does: to the start, then right `steps` times. */
async function slide(selector: string, steps: number) {
  await click(selector);
  await page.keyboard.press('Home');
  for (let i = 0; i < steps; i++) await page.keyboard.press('ArrowRight');
}

describe.skipIf(withoutChromium)('release channels in the dashboard', () => {
  it('uploads a beta release to a quarter of sites, then widens it to all', async () => {
    await go(`/products/${product.id}`);
    await click(link('Releases'));
    const zip = join(mkdtempSync(join(tmpdir(), 'channels-zip-')), 'channel-plugin-2.0.0-beta.1.zip');
    writeFileSync(zip, zipBytes(4096));
    const input = await page.waitForSelector('input[type=file]');
    await input!.uploadFile(zip);
    await page.locator(textbox('Version')).fill('2.0.0-beta.1');
    await page.select(combobox('Channel'), 'beta');
    await slide('form input[type=range]', 24);
    await waitFor(text('Rollout: 25%'));
    await waitFor(text('About 25% of sites on its channel get it; the rest keep the previous release'));
    await screenshot(page, 'release-upload-channel-rollout');
    expect(await seriousViolations(page)).toEqual([]);
    await click(button('Upload release'));
    await waitFor(text('Release 2.0.0-beta.1 added'));
    await expect.poll(releases, { timeout: 10_000 }).toEqual([expect.objectContaining({ version: '2.0.0-beta.1', channel: 'beta', rolloutPercent: 25 })]);

    await waitFor(text('Rollout: 25%'));
    await click(text('Channel, rollout, notes and update metadata'));
    const rowSlider = 'li.card details input[type=range]';
    await click(rowSlider);
    await page.keyboard.press('End');
    await waitFor(text('Every site on its channel gets it'));
    await click(`li.card details ${button('Save')}`);
    await expect.poll(releases, { timeout: 10_000 }).toEqual([expect.objectContaining({ channel: 'beta', rolloutPercent: 100 })]);
    await screenshot(page, 'release-row-channel-rollout');
    expect(await seriousViolations(page)).toEqual([]);
  });

  it("sets a plan's channel, a license's, and the product's updates after expiry", async () => {
    await go(`/products/${product.id}`);
    await page.select(combobox('Updates after expiry'), 'releasedBeforeExpiry');
    await click(button('Save product'));
    await waitFor(text('Saved.'));
    await expect.poll(async () => (await tenant.get(`/api/products/${product.id}`)).body.updatesAfterExpiry, { timeout: 10_000 }).toBe('releasedBeforeExpiry');

    await click(link('Plans'));
    await page.locator(textbox('Plan name')).fill('Beta testers');
    await page.locator(textbox('Price')).fill('19');
    await page.select(`section[aria-labelledby=new-plan-heading] ${combobox('Release channel')}`, 'beta');
    await click(button('Create plan'));
    const plans = async () => (await tenant.get(`/api/products/${product.id}/plans`)).body.items as { name: string; channel: string }[];
    await expect.poll(plans, { timeout: 10_000 }).toEqual([expect.objectContaining({ name: 'Beta testers', channel: 'beta' })]);

    const license = await newLicense(tenant, product.id);
    await go(`/licenses/${license.id}`);
    await page.select(combobox('Release channel'), 'alpha');
    await click(button('Save changes'));
    // The saved license reloads the form (its "Saved." with it): the service and the form show the channel.
    await expect.poll(async () => (await tenant.get(`/api/licenses/${license.id}`)).body.channel, { timeout: 10_000 }).toBe('alpha');
    await expect.poll(() => page.$eval(combobox('Release channel'), (select) => (select as unknown as { value: string }).value), { timeout: 10_000 }).toBe('alpha');
    await screenshot(page, 'license-channel');
    expect(await seriousViolations(page)).toEqual([]);
  });
});
