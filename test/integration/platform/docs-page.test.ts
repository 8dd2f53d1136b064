import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import puppeteer, { type Browser } from 'puppeteer-core';
import { afterAll, describe, expect, inject, it } from 'vitest';

/**
 * `/docs` renders in Chromium with no network: every request that does not go to the local stack is refused,
 * and the page still shows every operation of the document. A screenshot is left in test-output/ (gitignored).
 * Needs Chromium (`apt-get install chromium`; .ci/run installs it): skipped without it, except on CI.
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const available = existsSync(CHROMIUM);
const OUTPUT = new URL('../../../test-output/', import.meta.url);

const document = JSON.parse(readFileSync(new URL('../../../docs/openapi.json', import.meta.url), 'utf8')) as { paths: Record<string, object> };
const operationCount = Object.values(document.paths).flatMap((item) => Object.keys(item)).length;

let browser: Browser | undefined;
afterAll(async () => browser?.close());

describe('the reference docs page', () => {
  it.skipIf(!available && !process.env.CI)('renders every operation offline in Chromium', async () => {
    browser = await puppeteer.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
    });
    const page = await browser.newPage();
    await page.setViewport({ width: 1280, height: 1600 });
    const base = new URL(inject('baseUrl'));
    const blocked: string[] = [];
    const problems: string[] = [];
    await page.setRequestInterception(true);
    page.on('request', (request) => {
      const url = new URL(request.url());
      const local = url.protocol === 'data:' || (['localhost', '127.0.0.1', '[::1]'].includes(url.hostname) && url.port === base.port);
      if (local) void request.continue();
      else {
        blocked.push(request.url());
        void request.abort('blockedbyclient');
      }
    });
    page.on('pageerror', (error) => problems.push(`page error: ${(error as Error).message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });

    const response = await page.goto(`${base.origin}/docs`, { waitUntil: 'networkidle0', timeout: 60_000 });
    expect(response?.status()).toBe(200);
    await page.waitForSelector('.opblock', { timeout: 30_000 });
    const rendered = await page.$$eval('.opblock', (blocks) => blocks.length);
    const title = await page.$eval('.info .title', (element) => element.textContent ?? '');
    mkdirSync(OUTPUT, { recursive: true });
    await page.screenshot({ path: new URL('docs-page.png', OUTPUT).pathname as `${string}.png` });

    expect(title).toContain('Licensing service API');
    // Every operation of the document, and each webhook event, is listed.
    expect(rendered).toBeGreaterThanOrEqual(operationCount);
    expect(blocked).toEqual([]);
    expect(problems).toEqual([]);
  }, 120_000);
});
