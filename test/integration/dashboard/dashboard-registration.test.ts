import { existsSync } from 'node:fs';
import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { button, CHROMIUM, desktopPage, launchChromium, link, screenshot, seriousViolations, text } from '../../support/dashboard-page.js';
import { startManagementGateway, type ManagementGateway } from '../../support/management-gateway.js';
import { tableOfItsOwn } from '../../support/table.js';

/**
 * Sign-up in the dashboard where registration is by invitation (DECISIONS §20), in Chromium: the dashboard served with
 * the management function of a deployment set to `registration=invite`, on a table of its own; and the shared stack's,
 * which `npm start` leaves open. Skipped without Chromium, except on CI.
 */
const available = existsSync(CHROMIUM);

let browser: Browser | undefined;
let page: Page;
let closed: ManagementGateway;

beforeAll(async () => {
  if (!available && !process.env.CI) return;
  closed = await startManagementGateway({ TABLE_NAME: await tableOfItsOwn(), REGISTRATION: 'invite' }, { serveDashboard: true });
  browser = await launchChromium();
  page = await desktopPage(browser);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await closed?.close();
});

const waitFor = (selector: string) => page.waitForSelector(selector);
const shows = async (selector: string) => (await page.$(selector)) !== null;

async function checkPage(name: string) {
  await screenshot(page, name);
  expect(await seriousViolations(page), `axe on ${name}`).toEqual([]);
}

describe.skipIf(!available && !process.env.CI)('sign-up in the dashboard (DECISIONS §20)', () => {
  it('hides the sign-up form where registration is by invitation, and says how accounts are made there', async () => {
    await page.goto(`${closed.url}/register`, { waitUntil: 'networkidle0' });
    await waitFor(text('Accounts are by invitation'));
    expect(await shows(button('Create account'))).toBe(false);
    expect(await shows(button('Continue with Google'))).toBe(false);
    await checkPage('registration-by-invitation');

    await page.goto(`${closed.url}/sign-in`, { waitUntil: 'networkidle0' });
    await waitFor(text('Accounts here are by invitation'));
    expect(await shows(link('Create one'))).toBe(false);
    await checkPage('sign-in-by-invitation');
  });

  it('shows the form to someone who came from an invitation, and keeps where they were going', async () => {
    const next = encodeURIComponent('/accept-invitation?token=abcdefghijklmnopqrstuvwxyz234567');
    await page.goto(`${closed.url}/sign-in?next=${next}`, { waitUntil: 'networkidle0' });
    await page.locator(link('Create one')).click();
    await waitFor(button('Create account'));
    expect(new URL(page.url()).search).toBe(`?next=${next}`);
  });

  it('shows it where registration is open, as npm start has it', async () => {
    await page.goto(`${inject('baseUrl')}/register`, { waitUntil: 'networkidle0' });
    await waitFor(button('Create account'));
    expect(await shows(text('Accounts are by invitation'))).toBe(false);
    await page.goto(`${inject('baseUrl')}/sign-in`, { waitUntil: 'networkidle0' });
    await waitFor(link('Create one'));
  });
});
