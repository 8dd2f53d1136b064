import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { signedInDashboard, withoutChromium } from '../../support/dashboard-browser.js';
import { button, byRole, link, screenshot, seriousViolations, text, textbox } from '../../support/dashboard-page.js';
import { newRelease } from '../../support/licensing-fixtures.js';

/**
 * A release's desktop files in the dashboard (DECISIONS §26), in a real Chromium against the local stack: a build
 * uploaded per platform straight to storage with its progress, its SHA-512 computed in the browser as electron-builder
 * writes it, and a signature; what the release then lists is what the service holds. Needs Chromium: skipped without
 * it, except on CI.
 */
const { page, tenant, go, click, waitFor } = signedInDashboard();
let product: { id: string };
let release: { id: string };
beforeAll(async () => {
  product = (await tenant.post('/api/products', { name: 'Desktop Notes', productType: 'app' })).body;
  release = await newRelease(tenant, product.id, { version: '3.0.0' });
});

const files = async () => (await tenant.get(`/api/products/${product.id}/releases/${release.id}`)).body.files as Record<string, unknown>[];

describe.skipIf(withoutChromium)('desktop files in the dashboard', () => {
  it('uploads a build for a platform with its signature, and lists it with the release', async () => {
    const bytes = randomBytes(256 * 1024);
    const build = join(mkdtempSync(join(tmpdir(), 'desktop-build-')), 'Desktop-Notes-3.0.0-arm64-mac.zip');
    writeFileSync(build, bytes);

    await go(`/products/${product.id}`);
    await click(link('Releases'));
    await click(text('Desktop files (0)'));
    const form = 'form[aria-label="Add a desktop file to 3.0.0"]';
    await page.select(`${form} ${byRole('combobox', 'Platform')}`, 'macos-arm64');
    const input = await page.waitForSelector(`${form} input[type=file]`);
    await input!.uploadFile(build);
    await page.locator(`${form} ${textbox('Signature (optional)')}`).fill('c2lnbmF0dXJlIG9mIDMuMC4w');
    expect(await seriousViolations(page)).toEqual([]);
    await click(`${form} ${button('Upload file')}`);
    await waitFor(text('macOS Apple silicon file added'));

    await expect.poll(files, { timeout: 10_000 }).toEqual([
      expect.objectContaining({
        platform: 'macos-arm64',
        fileName: 'Desktop-Notes-3.0.0-arm64-mac.zip',
        fileSize: bytes.length,
        sha512: createHash('sha512').update(bytes).digest('base64'),
        signature: 'c2lnbmF0dXJlIG9mIDMuMC4w',
      }),
    ]);
    await waitFor(text('Desktop files (1)'));
    await waitFor(text('Desktop-Notes-3.0.0-arm64-mac.zip'));
    await screenshot(page, 'release-desktop-files');
  });
});
