import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

/** Debian's Chromium (`apt-get install chromium`; .ci/run installs it); puppeteer's own browser download is not used. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const OUTPUT = new URL('../../test-output/dashboard/', import.meta.url);
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export async function launchChromium(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking', '--disable-component-update'],
  });
}

/** A desktop-sized page of `browser` that waits up to 15 s for what a test looks for. */
export async function desktopPage(browser: Browser): Promise<Page> {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 900 });
  page.setDefaultTimeout(15_000);
  return page;
}

/** Saves a full-page screenshot as test-output/dashboard/<name>.png (gitignored). */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(OUTPUT, { recursive: true });
  await page.screenshot({ path: new URL(`${name}.png`, OUTPUT).pathname as `${string}.png`, fullPage: true });
}

export type Violation = { id: string; impact: string; help: string; targets: string[] };

/** axe-core's serious and critical violations on the page as it is now (WCAG 2.x A and AA, and best practices). */
export async function seriousViolations(page: Page): Promise<Violation[]> {
  // Evaluated by the DevTools protocol, which the dashboard's Content-Security-Policy does not govern (an inline
  // script tag it would refuse).
  if (!(await page.evaluate(() => 'axe' in globalThis))) await page.evaluate(AXE_SOURCE);
  // Runs in the page (this project's TypeScript has no DOM types): axe checks the whole document.
  return page.evaluate(async () => {
    const { axe, document } = globalThis as unknown as { axe: { run: (context: unknown, options: object) => Promise<{ violations: any[] }> }; document: unknown };
    const { violations } = await axe.run(document, { resultTypes: ['violations'] });
    return violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({ id: violation.id, impact: violation.impact, help: violation.help, targets: violation.nodes.map((node: { target: string[] }) => node.target.join(' ')) }));
  });
}

/** Selectors by role and accessible name, as a person finds controls (Puppeteer's ARIA query handler). */
export const byRole = (role: string, name: string) => `::-p-aria([name="${name}"][role="${role}"])`;
export const textbox = (name: string) => byRole('textbox', name);
export const button = (name: string) => byRole('button', name);
export const link = (name: string) => byRole('link', name);
export const text = (value: string) => `::-p-text(${value})`;
