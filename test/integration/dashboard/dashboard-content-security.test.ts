import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { dashboardContentSecurityPolicy } from '../../../infra/dashboard-headers.js';
import { uniqueEmail } from '../../support/client.js';
import { dashboardBrowser, withoutChromium } from '../../support/dashboard-browser.js';
import { button, link, text, textbox } from '../../support/dashboard-page.js';
import { zipBytes } from '../../support/licensing-fixtures.js';

/**
 * The dashboard under the Content-Security-Policy that the front door sends with it in AWS (the local gateway sends the
 * same): a vendor's journey through its pages, a release uploaded both ways (through the service, and straight to
 * storage by presigned PUT), and not one violation reported by Chromium. Needs Chromium: skipped without it, except on CI.
 */
const base = inject('baseUrl');
type Violation = { directive: string; blocked: string };

const { page, click, fill } = dashboardBrowser();
beforeAll(async () => {
  // Registered before any page script runs, on every document: each violation Chromium reports is kept.
  await page.evaluateOnNewDocument(() => {
    const scope = globalThis as unknown as { violations: Violation[]; document: { addEventListener: (type: string, listener: (event: any) => void) => void } };
    scope.violations = [];
    scope.document.addEventListener('securitypolicyviolation', (event) => scope.violations.push({ directive: event.violatedDirective, blocked: event.blockedURI }));
  });
});

const violations = () => page.evaluate(() => (globalThis as unknown as { violations: Violation[] }).violations);

async function uploadRelease(version: string, size: number) {
  const zip = join(mkdtempSync(join(tmpdir(), 'csp-zip-')), `csp-plugin-${version}.zip`);
  writeFileSync(zip, zipBytes(size));
  await (await page.waitForSelector('input[type=file]'))!.uploadFile(zip);
  await fill(textbox('Version'), version);
  await click(button('Upload release'));
  await page.waitForSelector(text(`Release ${version} added`));
}

describe.skipIf(withoutChromium)('the dashboard under its Content-Security-Policy', () => {
  it('is served with the policy, whose connect-src lets uploads reach storage', async () => {
    const res = await fetch(`${base}/sign-in`);
    const policy = res.headers.get('content-security-policy')!;
    expect(policy).toMatch(/^default-src 'self'; script-src 'self'; style-src 'self';/);
    expect(policy).toBe(dashboardContentSecurityPolicy(/connect-src 'self' (\S+);/.exec(policy)![1]!));
  });

  it('runs a vendor’s journey, uploads included, without one violation', async () => {
    await page.goto(`${base}/register`, { waitUntil: 'networkidle0' });
    await fill(textbox('E-mail'), uniqueEmail('csp'));
    await fill(textbox('Password'), 'correct horse battery');
    await fill(textbox('Name'), 'CSP Vendor');
    await click(button('Create account'));
    await page.waitForSelector(text('No products yet'));
    await click(link('New product'));
    await fill(textbox('Name'), 'CSP Plugin');
    await click(button('Create product'));
    await page.waitForSelector(text('Replace public key'));
    await click(link('Releases'));
    await uploadRelease('1.0.0', 100_000);
    await uploadRelease('1.1.0', 5 * 1024 * 1024);
    // Webhooks and Account sit in the header's Settings menu.
    for (const [menu, name] of [[undefined, 'Licenses'], [undefined, 'Customers'], ['Settings', 'Webhooks'], ['Settings', 'Account']] as const) {
      if (menu) await click(button(menu));
      await click(link(name));
      await page.waitForNetworkIdle();
    }
    expect(await violations()).toEqual([]);
  }, 120_000);

  it('reports what the policy refuses (so the journey’s silence means something)', async () => {
    await page.evaluate(() => {
      const { document } = globalThis as unknown as { document: { createElement: (tag: string) => { textContent: string }; body: { append: (node: unknown) => void } } };
      const script = document.createElement('script');
      script.textContent = 'void 0';
      document.body.append(script);
    });
    await page.waitForFunction(() => (globalThis as unknown as { violations: unknown[] }).violations.length > 0);
    expect(await violations()).toEqual([expect.objectContaining({ directive: 'script-src-elem', blocked: 'inline' })]);
  });
});
