import { existsSync } from 'node:fs';
import type { Browser, Page, PuppeteerLifeCycleEvent } from 'puppeteer-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { newTenant } from './client.js';
import { CHROMIUM, desktopPage, launchChromium } from './dashboard-page.js';

/** The browser tests are skipped where Chromium is missing, except on CI, where it must be there. */
export const withoutChromium = !existsSync(CHROMIUM) && !process.env.CI;

export type Tenant = Awaited<ReturnType<typeof newTenant>>;
/** An API client of the local stack, signed in: its session cookie signs the browser in as the same account. */
type SignedIn = { cookie?: string };
/** Chromium on a page may take long to start on a busy machine; a set-up that makes an account and a shop as well, longer. */
const SET_UP_MS = 120_000;

/**
 * What a `beforeAll` hook makes, named at the top of a test file before it exists: each property read through it is
 * the made object's (methods bound to it), so `page.locator(…)` in a test is the file's page. Used before the hook has
 * run, it says so.
 */
function madeBeforeAll<T extends object>(what: string): { value: T; make: (made: T) => T } {
  let made: T | undefined;
  const current = () => {
    if (made === undefined) throw new Error(`${what} is made by beforeAll: use it in a test or a later hook`);
    return made;
  };
  const value = new Proxy({} as T, {
    get(_, key) {
      const target = current();
      const property: unknown = Reflect.get(target, key, target);
      return typeof property === 'function' ? property.bind(target) : property;
    },
  });
  return { value, make: (object) => (made = object) };
}

export type DashboardBrowser = {
  /** The file's desktop-sized page of the dashboard (see `desktopPage`). */
  page: Page;
  /** Opens a dashboard path and waits for the network to go quiet (or for `waitUntil`). */
  go: (path: string, waitUntil?: PuppeteerLifeCycleEvent) => ReturnType<Page['goto']>;
  click: (selector: string) => Promise<void>;
  fill: (selector: string, value: string) => Promise<void>;
  waitFor: (selector: string) => ReturnType<Page['waitForSelector']>;
  /** Signs the page in as `account` (its session cookie, on the stack's origin), replacing whoever was signed in. */
  signInAs: (account: SignedIn) => Promise<void>;
};

/**
 * Chromium with one dashboard page for a test file: opened before the file's tests, closed after them. The page is
 * the stack's own origin, which serves the dashboard; nobody is signed in.
 */
export function dashboardBrowser(): DashboardBrowser {
  const base = inject('baseUrl');
  const page = madeBeforeAll<Page>('The dashboard page');
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchChromium();
    page.make(await desktopPage(browser));
  }, SET_UP_MS);
  afterAll(async () => {
    await browser?.close();
  });
  return {
    page: page.value,
    go: (path, waitUntil = 'networkidle0') => page.value.goto(`${base}${path}`, { waitUntil }),
    click: (selector) => page.value.locator(selector).click(),
    fill: (selector, value) => page.value.locator(selector).fill(value),
    waitFor: (selector) => page.value.waitForSelector(selector),
    async signInAs(account) {
      await page.value.deleteCookie(...(await page.value.cookies(base)));
      await page.value.setCookie({ name: 'session', value: account.cookie!, url: base, httpOnly: true });
    },
  };
}

/**
 * `dashboardBrowser` signed in as an account made through the API before the tests: a new tenant, or the one
 * `account` makes (with whatever else the tests need first). `tenant` is that account's client.
 */
export function signedInDashboard(): DashboardBrowser & { tenant: Tenant };
export function signedInDashboard<A extends SignedIn & object>(account: () => Promise<A>): DashboardBrowser & { tenant: A };
export function signedInDashboard(account: () => Promise<SignedIn & object> = newTenant) {
  const dashboard = dashboardBrowser();
  const tenant = madeBeforeAll<SignedIn & object>('The signed-in account');
  beforeAll(async () => {
    await dashboard.signInAs(tenant.make(await account()));
  }, SET_UP_MS);
  return { ...dashboard, tenant: tenant.value };
}
