import { describe, expect, it } from 'vitest';
import { DASHBOARD_ORIGIN, uniqueEmail } from '../../support/client.js';
import { dashboardBrowser, withoutChromium } from '../../support/dashboard-browser.js';
import { button, link, screenshot, seriousViolations, text, textbox } from '../../support/dashboard-page.js';
import { verificationLinks } from '../../support/mail.js';

/**
 * E-mail verification in the dashboard, in Chromium against the local stack: the notice an unverified account sees
 * and its button that sends the link again, and the landings of a verification link (`?verified=1`,
 * `?error=invalid_token`), signed in or not. Needs Chromium: skipped without it, except on CI.
 */
const email = uniqueEmail('verify-ui');
const password = 'correct horse battery';

const { page, go, click, waitFor } = dashboardBrowser();
const shows = async (value: string) => (await page.$(text(value))) !== null;

async function checkPage(name: string) {
  await screenshot(page, name);
  expect(await seriousViolations(page), `axe on ${name}`).toEqual([]);
}

describe.skipIf(withoutChromium)('e-mail verification in the dashboard', () => {
  it('asks a new account to confirm its address, and sends the link again on request', async () => {
    await go('/register');
    await page.locator(textbox('E-mail')).fill(email);
    await page.locator(textbox('Password')).fill(password);
    await click(button('Create account'));
    await waitFor(text('Confirm your e-mail address'));
    await checkPage('verification-notice');
    await click(button('Send the link again'));
    await waitFor(text(`A new link is on its way to ${email}.`));
    expect(await verificationLinks(email, 2)).toHaveLength(2);
  });

  it('says a link was invalid or has expired, and still offers a new one', async () => {
    await go('/?error=invalid_token');
    await waitFor(text('That verification link is invalid or has expired.'));
    expect(new URL(page.url()).pathname).toBe('/products');
    expect(await shows('Send the link again')).toBe(true);
    await checkPage('verification-invalid-link');
  });

  it('says, where a feature waits for the address, why and how to confirm it, instead of a form the service would refuse', async () => {
    const pages = [
      { path: '/team', says: 'Confirm your e-mail address to invite people', form: button('Send invitation') },
      { path: '/webhooks', says: 'Confirm your e-mail address to add or change webhooks', form: link('New webhook') },
      { path: '/webhooks/new', says: 'Confirm your e-mail address to add or change webhooks', form: button('Create webhook') },
      { path: '/payment-provider', says: 'Confirm your e-mail address to connect Stripe', form: button('Connect') },
      { path: '/imports', says: 'Confirm your e-mail address to import licenses', form: button('Start import') },
      { path: '/account', says: 'Confirm your e-mail address to export the account', form: button('Export as JSON Lines') },
    ];
    for (const { path, says, form } of pages) {
      await go(path);
      await waitFor(text(says));
      expect(await page.$(form), path).toBeNull();
      expect(await page.$$(button('Send the link again')), path).not.toHaveLength(0);
    }
    await checkPage('verify-first-account');
    await go('/team');
    await waitFor(text('Confirm your e-mail address to invite people'));
    await checkPage('verify-first-team');
    // Its button sends the link again, as the banner's does.
    await page.locator(`.verify-first ${button('Send the link again')}`).click();
    await waitFor(text(`A new link is on its way to ${email}.`));
    expect(await verificationLinks(email, 3)).toHaveLength(3);
  });

  it('lands from a working link on a verified account, whose notice is gone', async () => {
    const [, newest] = await verificationLinks(email, 2);
    const opened = await fetch(newest!, { redirect: 'manual' });
    // The stack's dashboard is DASHBOARD_ORIGIN; the browser lands on this one's equivalent.
    expect(opened.headers.get('location')).toBe(`${DASHBOARD_ORIGIN}/?verified=1`);
    await go('/?verified=1');
    await waitFor(text(`Thank you: ${email} is verified.`));
    expect(await shows('Confirm your e-mail address')).toBe(false);
    await checkPage('verification-verified');
    await go('/?error=invalid_token');
    await waitFor(text(`That link was already used: ${email} is verified.`));
    await go('/products');
    await waitFor(text('No products yet'));
    expect(await shows('is verified')).toBe(false);
    // What waited for the address is there now.
    await go('/team');
    await waitFor(button('Send invitation'));
    expect(await shows('Confirm your e-mail address to invite people')).toBe(false);
  });

  it('keeps the landing through signing in', async () => {
    await click(button('Sign out'));
    await waitFor(button('Sign in'));
    await go('/?verified=1');
    await page.locator(textbox('E-mail')).fill(email);
    await page.locator(textbox('Password')).fill(password);
    await click(button('Sign in'));
    await waitFor(text(`Thank you: ${email} is verified.`));
  });
});
