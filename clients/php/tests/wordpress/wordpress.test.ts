/**
 * A real WordPress (Debian's `wordpress`, `mariadb-server`, `php-cli`, `php-mysql`) with a sample plugin at 1.0.0
 * that uses the PHP library's updater and license box, against a local stack of the service:
 *
 * 1. the license box activates a key for the site; the plugin is current;
 * 2. 1.1.0 is published; with the key revoked, WordPress shows the update (its cron and its update screens) but
 *    cannot download it, and says why;
 * 3. with a valid key, WordPress's own `wp_update_plugins()` and `Plugin_Upgrader` install it: 1.1.0 on disk, in the
 *    plugin's own folder, still active;
 * 4. ordinary admin pages make no request; each check sends the site's PHP, WordPress, address and channel, so a
 *    release needing a newer PHP is not offered;
 * 5. a beta release is offered only on a beta license with "Beta updates" on;
 * 6. "Roll back" installs an older version through WordPress's upgrader;
 * 7. an expired license's update row says "Renew your license to update to X", linked to its plan's checkout;
 * 8. with the service stopped, or hanging, admin pages still finish fast, the failure is cached (backing off 1 h,
 *    then 2 h), and nothing lands in PHP's log;
 * 9. on a second WordPress made a subdirectory network (run first, while the service is up), the network admin's box
 *    activates the license once, for the network's main address; subsites only show it, and their checks name it;
 * 10. two plugins of one bundle (DECISIONS §23), sharing one license option, both update from the bundle's key entered
 *    once in one of their license boxes.
 *
 * Run with `npm run test:wordpress` (about a minute; `.ci/run` runs it after installing the packages).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalStack, type LocalStack } from '../../../../infra/local/stack.js';
import { Client } from '../../../../test/support/client.js';
import { PACKAGES, WpAdmin, enableNetwork, freePort, missingPrerequisites, prepareWordPress, stallServer, startMariaDb, startPhpServer, zipArchive } from './support.js';

const run = promisify(execFile);
const here = dirname(fileURLToPath(import.meta.url));
const fixtures = join(here, 'fixtures');
const library = join(here, '..', '..');
const SLUG = 'sample-licensed-plugin';
const DASHBOARD_URL = 'http://dashboard.test';

type Stopper = { stop: () => Promise<void> };
const stops: (() => Promise<void>)[] = [];
let dir: string;
let stack: LocalStack;
let stackStopped = false;
let db: Awaited<ReturnType<typeof startMariaDb>>;
let wp: ReturnType<typeof prepareWordPress>;
let network: ReturnType<typeof prepareWordPress> | undefined;
let site: string;
let admin: WpAdmin;
let vendor: Client;
let product: { id: string; slug: string; public_key: string; signingKeys: { keyId: string; publicKey: string }[] };
/** The plugin's licensing settings: the service, the product's public key and its pinned signing keys. */
type PluginConfig = { base_url: string; public_key: string; signing: { public_keys: { keyId: string; publicKey: string }[] } };
const pluginConfig = (): PluginConfig => ({ base_url: stack.url, public_key: product.public_key, signing: { public_keys: product.signingKeys } });
let revokedKey: { id: string; licenseKey: string };
let goodKey: { id: string; licenseKey: string };
let betaKey: { id: string; licenseKey: string };

/** An admin path from an href on a page (HTML-escaped ampersands, absolute or relative to wp-admin); `path` false: the URL. */
function decodeHref(href: string, path = true) {
  const url = href.replace(/&#0?38;|&amp;/g, '&');
  if (!path) return url;
  const relative = url.replace(site, '');
  return relative.startsWith('/') ? relative : `/wp-admin/${relative}`;
}

/** A plugin's licensing config file: the updater's settings, as the plugin ships them. */
const configFile = (config: Record<string, unknown>) => `<?php\nreturn json_decode(base64_decode('${Buffer.from(JSON.stringify(config)).toString('base64')}'), true);\n`;

/** The sample plugin's files at a version: main file, its licensing config, and the bundled library. */
function pluginFiles(version: string, config: PluginConfig): Record<string, string> {
  return {
    'sample-licensed-plugin.php': readFileSync(join(fixtures, 'sample-plugin.php'), 'utf8').replace('{{VERSION}}', version),
    'licensing-config.php': configFile({ ...config, slug: SLUG }),
    [`CHANGES-${version}.txt`]: `Sample Licensed Plugin ${version}\n`,
    ...libraryFiles(),
  };
}

/** A plugin of a bundle at a version (fixtures/bundled-plugin.php): its product's config and the option the bundle's plugins share. */
function bundledPluginFiles(name: string, slug: string, version: string, config: PluginConfig & { option: string }): Record<string, string> {
  return {
    [`${slug}.php`]: readFileSync(join(fixtures, 'bundled-plugin.php'), 'utf8').replaceAll('{{NAME}}', name).replace('{{VERSION}}', version),
    'licensing-config.php': configFile({ ...config, slug }),
    ...libraryFiles(),
  };
}

/** The PHP library as a plugin bundles it, under vendor/licensing/. */
function libraryFiles(): Record<string, string> {
  const files: Record<string, string> = { 'vendor/licensing/autoload.php': readFileSync(join(library, 'autoload.php'), 'utf8') };
  const walk = (path: string) => {
    for (const entry of readdirSync(path)) {
      const full = join(path, entry);
      if (statSync(full).isDirectory()) walk(full);
      else files[`vendor/licensing/${relative(library, full)}`] = readFileSync(full, 'utf8');
    }
  };
  walk(join(library, 'src'));
  return files;
}

/** The sample plugin at 1.0.0 (or `files`, in folder `slug`) in the plugins folder of the WordPress in `wpDir`, not yet active. */
function installPlugin(wpDir: string, config: PluginConfig, slug = SLUG, files = pluginFiles('1.0.0', config)) {
  const pluginDir = join(wpDir, 'wp-content', 'plugins', slug);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(pluginDir, path)), { recursive: true });
    writeFileSync(join(pluginDir, path), content);
  }
}

/** One step inside WordPress (fixtures/wp-run.php; `on`: another install than the site's), as the administrator. */
async function wpRun(task: string, input: Record<string, unknown> = {}, on = { dir: wp.dir, site }): Promise<any> {
  const { stdout } = await run('php', [join(fixtures, 'wp-run.php'), task, JSON.stringify(input)], {
    env: { ...process.env, WP_TEST_DIR: on.dir, WP_TEST_SITE: on.site },
    timeout: 120_000,
    maxBuffer: 16 * 1024 * 1024,
  }).catch((error) => {
    throw new Error(`wp-run.php ${task} failed: ${error.message}\n${error.stdout ?? ''}\n${error.stderr ?? ''}`);
  });
  const last = stdout.trim().split('\n').at(-1)!;
  return JSON.parse(last);
}

/** Requests WordPress made to the licensing service (the test environment logs every outgoing request). */
function serviceRequests(httpLog = wp.httpLog): { url: string; at: number; method: string }[] {
  return readFileSync(httpLog, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line))
    .filter((entry) => entry.url.startsWith(stack.url));
}

/** The license box's form on the plugin's settings page (`settings`, as `session`), submitted with `op`. */
async function licenseBox(op: 'activate' | 'deactivate', key?: string, session = admin, settings = '/wp-admin/options-general.php?page=sample-licensed-plugin') {
  const page = await session.request(settings);
  expect(page.status, page.text.slice(0, 500)).toBe(200);
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page.text)?.[1];
  const form: Record<string, string> = {
    action: field('action')!,
    _wpnonce: field('_wpnonce')!,
    _wp_http_referer: field('_wp_http_referer')!,
    licensing_op: op,
  };
  if (key !== undefined) form.license_key = key;
  const target = /<form method="post" action="([^"]+)"/.exec(page.text)![1]!;
  const posted = await session.request(new URL(target.replace(/&#0?38;|&amp;/g, '&')).pathname, form);
  expect(posted.status, posted.text.slice(0, 500)).toBe(302);
  expect(posted.location).toContain(settings);
  return session.request(settings);
}

/** The license box's "Beta updates" choice, saved. */
async function licenseBoxBeta(on: boolean) {
  const page = await admin.request('/wp-admin/options-general.php?page=sample-licensed-plugin');
  const field = (name: string) => new RegExp(`name="${name}" value="([^"]*)"`).exec(page.text)?.[1];
  const form: Record<string, string> = { action: field('action')!, _wpnonce: field('_wpnonce')!, _wp_http_referer: field('_wp_http_referer')!, licensing_op: 'beta' };
  if (on) form.licensing_beta = '1';
  const posted = await admin.request('/wp-admin/admin-post.php', form);
  expect(posted.status, posted.text.slice(0, 500)).toBe(302);
  return admin.request('/wp-admin/options-general.php?page=sample-licensed-plugin');
}

async function publish(version: string, files: Record<string, string>, folder: string, extra: Record<string, unknown> = {}, productId = product.id) {
  const zip = zipArchive(Object.fromEntries(Object.entries(files).map(([path, content]) => [`${folder}/${path}`, content])));
  const form = new FormData();
  form.set('version', version);
  form.set('file', new Blob([new Uint8Array(zip)], { type: 'application/zip' }), `${folder}-${version}.zip`);
  const upload = await vendor.request('POST', `/api/products/${productId}/releases/upload`, { rawBody: form });
  expect(upload.status, upload.text).toBe(201);
  const release = await vendor.post(`/api/products/${productId}/releases`, { ...upload.body, version, ...extra });
  expect(release.status, release.text).toBe(201);
  return release.body as { id: string };
}

beforeAll(async () => {
  const missing = missingPrerequisites();
  if (missing.length) throw new Error(`Missing Debian packages (${missing.join(', ')}): apt-get install -y ${PACKAGES.join(' ')}`);
  dir = mkdtempSync(join(tmpdir(), 'licensing-wordpress-'));
  stack = await startLocalStack({ port: 0, dataDir: ':memory:', lightJvm: true, env: { DASHBOARD_URL, RATE_LIMIT_SCALE: '1000', EXPIRY_SWEEP_INTERVAL_MS: '0' } });
  stops.push(async () => {
    if (!stackStopped) await stack.stop();
  });
  db = await startMariaDb(dir, ['wordpress', 'network']);
  stops.push(db.stop);
  const port = await freePort();
  site = `http://127.0.0.1:${port}`;
  wp = prepareWordPress(dir, { site, socket: db.socket, fixtures });
  await wpRun('install');
  const server: Stopper = await startPhpServer(wp.dir, port);
  stops.push(server.stop);

  // The vendor's side: an account, the product with its update metadata, release 1.0.0 and two licenses.
  vendor = new Client(stack.url);
  const registered = await vendor.post('/api/auth/register', { email: 'vendor@example.com', password: 'correct horse battery' });
  expect(registered.status, registered.text).toBe(201);
  const created = await vendor.post('/api/products', {
    name: 'Sample Licensed Plugin',
    slug: SLUG,
    productType: 'plugin',
    description: 'Does sample things.',
    homepage: 'https://plugin.example',
    logoUrl: 'https://plugin.example/icon-256.png',
    bannerUrl: 'https://plugin.example/banner-1544.png',
    tested: '6.1',
    requires: '5.8',
    requiresPhp: '7.4',
  });
  expect(created.status, created.text).toBe(201);
  product = created.body;
  const config = pluginConfig();
  await publish('1.0.0', pluginFiles('1.0.0', config), SLUG, { releaseNotes: 'First release.' });
  for (const name of ['revoked', 'good'] as const) {
    const res = await vendor.post('/api/licenses', { productId: product.id, customerEmail: `${name}@example.com`, seats: 1 });
    expect(res.status, res.text).toBe(201);
    if (name === 'revoked') revokedKey = res.body;
    else goodKey = res.body;
  }

  // The site: the sample plugin at 1.0.0, installed and active, and the administrator signed in.
  installPlugin(wp.dir, config);
  expect(await wpRun('activate-plugin')).toEqual({ error: null });
  admin = new WpAdmin(site);
  await admin.login('admin', 'correct horse battery');
}, 240_000);

afterAll(async () => {
  for (const stop of stops.reverse()) await stop().catch((error) => console.error(error));
  if (dir) {
    if (process.env.KEEP_WORDPRESS) console.log(`WordPress left in ${dir}`);
    else rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);

// Declared first: it needs the service, which the last tests of the single site stop.
describe('on a multisite network the license is activated once, for the network', () => {
  const settings = '/wp-admin/network/settings.php?page=sample-licensed-plugin';
  let on: { dir: string; site: string };
  let mainSite: string;
  let mappedSite: string;
  let superAdmin: WpAdmin;
  let networkKey: { id: string; licenseKey: string };

  // A second WordPress made a subdirectory network as Tools → Network Setup does, with two subsites: `/shop/` on the
  // main address, and one mapped to an address of its own (127.0.0.2), so an activation of its own would show.
  beforeAll(async () => {
    const port = await freePort();
    mainSite = `http://127.0.0.1:${port}`;
    mappedSite = `http://127.0.0.2:${port}`;
    network = prepareWordPress(dir, { site: mainSite, socket: db.socket, fixtures, name: 'network', network: true });
    on = { dir: network.dir, site: mainSite };
    await wpRun('install', {}, on);
    expect(await wpRun('install-network', {}, on)).toEqual({ error: null });
    enableNetwork(network.dir, mainSite);
    expect(await wpRun('add-site', { domain: `127.0.0.1:${port}`, path: '/shop/', title: 'Shop' }, on)).toMatchObject({ error: null });
    expect(await wpRun('add-site', { domain: `127.0.0.2:${port}`, path: '/', title: 'Mapped' }, on)).toMatchObject({ error: null });
    installPlugin(network.dir, pluginConfig());
    expect(await wpRun('activate-plugin', { network: true }, on)).toEqual({ error: null });
    const router = join(fixtures, 'network-router.php');
    for (const host of ['127.0.0.1', '127.0.0.2']) stops.push((await startPhpServer(network.dir, port, { host, router })).stop);
    superAdmin = new WpAdmin(mainSite);
    await superAdmin.login('admin', 'correct horse battery');
    const created = await vendor.post('/api/licenses', { productId: product.id, customerEmail: 'network@example.com', seats: 1 });
    expect(created.status, created.text).toBe(201);
    networkKey = created.body;
  }, 120_000);

  const activationRequests = () => serviceRequests(network!.httpLog).filter((entry) => entry.url.endsWith('/public/v1/licenses/activate'));

  it("activates from the network admin's license box, with the network's main address", async () => {
    const page = await licenseBox('activate', networkKey.licenseKey, superAdmin, settings);
    expect(page.text).toContain('License activated for this network.');
    expect(page.text).toContain('Active for this network (127.0.0.1).');
    expect(activationRequests()).toHaveLength(1);
    const license = await vendor.get(`/api/licenses/${networkKey.id}`);
    expect(license.body.activations).toEqual([expect.objectContaining({ domain: '127.0.0.1', status: 'active' })]);
    // Kept once for the network, in no site's own options.
    expect(await wpRun('network-license', { slug: SLUG }, on)).toMatchObject({
      network: { key: networkKey.licenseKey, status: 'active' },
      sites: [],
      network_active: true,
    });
  });

  it("shows subsites the network's license and never activates for them, while their update checks name the network", async () => {
    const mappedAdmin = new WpAdmin(mappedSite);
    await mappedAdmin.login('admin', 'correct horse battery');
    const subsites: [WpAdmin, string][] = [
      [superAdmin, '/shop/wp-admin'],
      [mappedAdmin, '/wp-admin'],
    ];
    const before = serviceRequests(network!.httpLog).length;
    for (const [session, adminPath] of subsites) {
      // A stale stored answer: the subsite's Plugins screen checks for updates.
      await wpRun('set-state', { slug: SLUG, ago: { checked_at: 2 * 3600 } }, on);
      for (const path of ['/', '/plugins.php']) expect((await session.request(`${adminPath}${path}`)).status).toBe(200);
      const box = await session.request(`${adminPath}/options-general.php?page=sample-licensed-plugin`);
      expect(box.status).toBe(200);
      expect(box.text).toContain('Active for this network (127.0.0.1), managed by the network administrator.');
      expect(box.text).not.toContain('name="license_key"');
    }
    const made = serviceRequests(network!.httpLog).slice(before);
    const checks = made.filter((entry) => entry.url.includes('/v1/wp/update-check'));
    expect(checks).toHaveLength(2);
    for (const check of checks) expect(new URL(new URL(check.url).searchParams.get('domain')!).host).toBe(new URL(mainSite).host);
    expect(activationRequests()).toHaveLength(1);
    const license = await vendor.get(`/api/licenses/${networkKey.id}`);
    expect(license.body.activations).toEqual([expect.objectContaining({ domain: '127.0.0.1', status: 'active' })]);
    expect(await wpRun('network-license', { slug: SLUG }, on)).toMatchObject({ sites: [] });
  });
});

// Before the single site's own tests, which count its requests: its plugins are removed again at the end.
describe("a bundle's plugins all update from one key, entered once", () => {
  const plugins = [
    { name: 'Bundled Forms', slug: `bundled-forms-${Date.now().toString(36)}` },
    { name: 'Bundled Charts', slug: `bundled-charts-${Date.now().toString(36)}` },
  ];
  const basenames = plugins.map(({ slug }) => `${slug}/${slug}.php`);
  /** The option every plugin of the bundle names (the PHP client's README: "Bundles"). */
  const option = 'licensing_license_sample-bundle';
  let bundleKey: { id: string; licenseKey: string };
  let configs: (PluginConfig & { option: string })[];

  beforeAll(async () => {
    const products = [];
    for (const plugin of plugins) {
      const created = await vendor.post('/api/products', { name: plugin.name, slug: plugin.slug, productType: 'plugin' });
      expect(created.status, created.text).toBe(201);
      products.push(created.body as typeof product);
    }
    const bundle = await vendor.post('/api/products', { name: 'Sample Bundle', productType: 'bundle', includes: products.map(({ id }) => id) });
    expect(bundle.status, bundle.text).toBe(201);
    const license = await vendor.post('/api/licenses', { productId: bundle.body.id, customerEmail: 'bundle@example.com', seats: 1 });
    expect(license.status, license.text).toBe(201);
    bundleKey = license.body;
    configs = products.map((p) => ({ base_url: stack.url, public_key: p.public_key, signing: { public_keys: p.signingKeys }, option }));
    for (const [index, plugin] of plugins.entries()) {
      installPlugin(wp.dir, configs[index]!, plugin.slug, bundledPluginFiles(plugin.name, plugin.slug, '1.0.0', configs[index]!));
      await publish('1.1.0', bundledPluginFiles(plugin.name, plugin.slug, '1.1.0', configs[index]!), plugin.slug, {}, products[index]!.id);
    }
    expect(await wpRun('bundled-plugins', { op: 'activate', plugins: basenames })).toMatchObject({ outcome: Object.fromEntries(basenames.map((b) => [b, null])) });
  }, 120_000);

  afterAll(async () => {
    const removed = await wpRun('bundled-plugins', { op: 'remove', plugins: basenames });
    expect(removed).toMatchObject({ outcome: true, versions: Object.fromEntries(basenames.map((b) => [b, null])) });
  });

  it('takes the key in one license box; the other plugin shows it active; WordPress installs both updates with it', async () => {
    const settings = (slug: string) => `/wp-admin/options-general.php?page=${slug}`;
    const page = await licenseBox('activate', bundleKey.licenseKey, admin, settings(plugins[0]!.slug));
    expect(page.text).toContain('License activated for this site.');
    // The second plugin's box reads the same option: nothing to enter there.
    const other = await admin.request(settings(plugins[1]!.slug));
    expect(other.text).toContain('Active on this site (127.0.0.1).');
    const license = await vendor.get(`/api/licenses/${bundleKey.id}`);
    expect(license.body.activations).toEqual([expect.objectContaining({ domain: '127.0.0.1', status: 'active' })]);

    // WordPress's own update check, then "Update now" for each: both download 1.1.0 with the one key.
    const upgraded = await wpRun('bundled-plugins', { op: 'upgrade', plugins: basenames });
    for (const basename of basenames) {
      expect(upgraded.outcome[basename].package, basename).toContain(`license_key=${encodeURIComponent(bundleKey.licenseKey)}`);
      expect(upgraded.outcome[basename].result, JSON.stringify(upgraded.outcome[basename])).toBe(true);
    }
    expect(upgraded.versions).toEqual(Object.fromEntries(basenames.map((b) => [b, '1.1.0'])));
  });
});

describe('WordPress installs updates through the updater', () => {
  it('activates a license for the site from the license box, which lists its features; the plugin is current', async () => {
    expect((await vendor.put(`/api/products/${product.id}`, { features: [{ key: 'reports', name: 'Reports' }, { key: 'white-label', name: 'White label' }] })).status).toBe(200);
    expect((await vendor.put(`/api/licenses/${revokedKey.id}`, { features: ['reports', 'white-label'] })).status).toBe(200);
    const page = await licenseBox('activate', revokedKey.licenseKey);
    expect(page.text).toContain('License activated for this site.');
    expect(page.text).toContain('Features: reports, white-label');
    // The test site's address is an IP literal: a staging site by the product's default patterns, which takes no seat.
    expect(page.text).toContain('Active on this site (127.0.0.1). Staging site: it does not use a seat.');
    const license = await vendor.get(`/api/licenses/${revokedKey.id}`);
    expect(license.body).toMatchObject({
      activatedCount: 0,
      stagingCount: 1,
      activations: [{ domain: '127.0.0.1', status: 'active', environment: 'staging' }],
    });

    const plugins = await admin.request('/wp-admin/plugins.php');
    expect(plugins.status).toBe(200);
    expect(plugins.text).toContain('Sample Licensed Plugin');
    expect(plugins.text).not.toContain('There is a new version of Sample Licensed Plugin');
    expect(plugins.text).toContain('Check for updates');

    const { state, autoload, next_cron, license: stored } = await wpRun('state', { slug: SLUG });
    expect(autoload).toBe('no'); // a non-autoloaded option, not a transient
    expect(state).toMatchObject({ failed_at: null, info: { new_version: '1.0.0', slug: SLUG } });
    expect(state.expires - state.checked_at).toBe(12 * 3600);
    expect(next_cron).toBeGreaterThan(Date.now() / 1000); // its own cron event
    expect(stored).toMatchObject({ key: revokedKey.licenseKey, status: 'active' });
    expect((await wpRun('update-plugins')).in).toBe('no_update'); // listed, so the auto-update toggle shows
  });

  it('shows 1.1.0 to a revoked key, from its cron and on the update screens, but cannot download it, and says why', async () => {
    await publish('1.1.0', pluginFiles('1.1.0', pluginConfig()), `${SLUG}-1.1.0`, {
      releaseNotes: 'Adds the 1.1 things.',
      tested: '6.1',
    });
    expect((await vendor.post(`/api/licenses/${revokedKey.id}/revoke`)).status).toBe(200);

    // Its cron event, as WordPress's wp-cron.php runs it (after the stored answer has aged two hours).
    await wpRun('set-state', { slug: SLUG, ago: { checked_at: 7200 } });
    await wpRun('make-cron-due', { slug: SLUG });
    const before = serviceRequests().length;
    await run('php', [join(wp.dir, 'wp-cron.php')], { cwd: wp.dir, timeout: 60_000, env: { ...process.env } });
    expect(serviceRequests().length).toBe(before + 1);
    const { state } = await wpRun('state', { slug: SLUG });
    expect(state.info).toMatchObject({ new_version: '1.1.0' });
    expect(state.info.package).toBeUndefined();

    const update = await wpRun('update-plugins');
    expect(update.in).toBe('response');
    expect(update.entry).toMatchObject({ slug: SLUG, plugin: `${SLUG}/${SLUG}.php`, new_version: '1.1.0', package: '', tested: '6.1', requires: '5.8', requires_php: '7.4' });
    // WordPress.org was not asked about the plugin, so its stand-in's impostor 9.9.9 never appeared.
    expect(Object.keys(update.wporg_request.plugins)).not.toContain(`${SLUG}/${SLUG}.php`);
    expect(update.wporg_request.active).not.toContain(`${SLUG}/${SLUG}.php`);
    expect(Object.keys(update.wporg_request.plugins)).toContain('akismet/akismet.php');

    const plugins = await admin.request('/wp-admin/plugins.php');
    expect(plugins.text).toContain('There is a new version of Sample Licensed Plugin available');
    expect(plugins.text).toContain('Automatic update is unavailable for this plugin.');
    expect(plugins.text).toContain('Your license key cannot download this update');
    expect(plugins.text).toContain('options-general.php?page=sample-licensed-plugin');

    // WordPress's upgrader, as "Update now" runs it: nothing to download.
    const upgrade = await wpRun('upgrade', { slug: SLUG });
    expect(upgrade.result).not.toBe(true);
    expect(upgrade.skin_errors).toContain('Update package not available.');
    expect(upgrade.disk).toMatchObject({ version: '1.0.0', active: true, files: expect.arrayContaining(['CHANGES-1.0.0.txt']) });
  });

  it('answers the plugin-information modal from its stored answer: changelog, banners, icons, tested and requires', async () => {
    const { info, other } = await wpRun('plugins-api', { slug: SLUG });
    expect(info).toMatchObject({
      name: 'Sample Licensed Plugin',
      slug: SLUG,
      version: '1.1.0',
      homepage: 'https://plugin.example',
      requires: '5.8',
      tested: '6.1',
      requires_php: '7.4',
      banners: { low: 'https://plugin.example/banner-1544.png', high: 'https://plugin.example/banner-1544.png' },
      icons: { '1x': 'https://plugin.example/icon-256.png', '2x': 'https://plugin.example/icon-256.png' },
    });
    expect(info.sections.description).toContain('Does sample things.');
    expect(info.sections.changelog).toMatch(/<h4>1\.1\.0<\/h4>[\s\S]*Adds the 1\.1 things\.[\s\S]*<h4>1\.0\.0<\/h4>/);
    expect(other).not.toBe('answered'); // another slug goes to WordPress.org (offline here), untouched

    const modal = await admin.request(`/wp-admin/plugin-install.php?tab=plugin-information&plugin=${SLUG}&section=changelog`);
    expect(modal.status).toBe(200);
    expect(modal.text).toContain('Adds the 1.1 things.');
  });

  it('installs 1.1.0 through WordPress once the site holds a valid key', async () => {
    let page = await licenseBox('deactivate');
    expect(page.text).toContain('License deactivated for this site.');
    page = await licenseBox('activate', goodKey.licenseKey);
    expect(page.text).toContain('Active on this site (127.0.0.1).');

    // The update screen re-checks (the key changed) and offers "Update now".
    const updateCore = await admin.request('/wp-admin/update-core.php');
    expect(updateCore.status).toBe(200);
    expect(updateCore.text).toContain('Sample Licensed Plugin');
    expect(updateCore.text).toMatch(/You have version 1\.0\.0 installed\. Update to 1\.1\.0/);

    const update = await wpRun('update-plugins');
    expect(update.in).toBe('response');
    expect(update.entry.package).toBe(`${stack.url}/v1/download/${(await releases())['1.1.0']!.id}?license_key=${encodeURIComponent(goodKey.licenseKey)}`);
    expect(update.update_count).toBe(1);

    // "Update now" in the plugin's row: WordPress's update.php runs Plugin_Upgrader, then reactivates the plugin.
    const plugins = await admin.request('/wp-admin/plugins.php');
    const link = /href="([^"]*update\.php\?action=upgrade-plugin[^"]*)"/.exec(plugins.text)?.[1];
    expect(link, 'an "update now" link').toBeDefined();
    const upgradeStarted = Date.now() / 1000;
    const requestsBefore = serviceRequests().length;
    const updated = await admin.request(decodeHref(link!));
    expect(updated.status).toBe(200);
    expect(updated.text).toContain('Plugin updated successfully.');
    // Right after the upgrade: the stored answer forgotten, a re-check scheduled; WordPress refreshing its update data
    // at the end of the upgrade may already have made it, for the new version.
    const cleared = await wpRun('state', { slug: SLUG });
    if (cleared.state !== null) {
      expect(cleared.state.checked_at).toBeGreaterThanOrEqual(Math.floor(upgradeStarted));
      const checks = serviceRequests().slice(requestsBefore).filter((entry) => entry.url.includes('/v1/wp/update-check'));
      expect(new URL(checks.at(-1)!.url).searchParams.get('version')).toBe('1.1.0');
    }
    expect(cleared.next_cron).toBeLessThanOrEqual(Date.now() / 1000 + 3600);
    let disk = await wpRun('disk');
    expect(disk).toMatchObject({ version: '1.1.0', other_plugin_dirs: [] });
    expect(disk.files).toEqual(expect.arrayContaining(['sample-licensed-plugin.php', 'CHANGES-1.1.0.txt', 'licensing-config.php', 'vendor']));
    expect(disk.files).not.toContain('CHANGES-1.0.0.txt');
    expect((await releases())['1.1.0']!.downloadCount).toBe(1);

    const reactivate = /<iframe[^>]+src="([^"]*action=activate-plugin[^"]*)"/.exec(updated.text)?.[1];
    expect(reactivate, 'the reactivation frame').toBeDefined();
    const reactivated = await admin.request(decodeHref(reactivate!));
    expect(reactivated.status).toBe(302);
    expect(reactivated.location).toContain('success=true'); // the new version loads and activates
    disk = await wpRun('disk');
    expect(disk).toMatchObject({ version: '1.1.0', active: true });

    const after = await admin.request('/wp-admin/plugins.php');
    expect(after.text).not.toContain('There is a new version of Sample Licensed Plugin');
    expect((await wpRun('state', { slug: SLUG })).state.info.new_version).toBe('1.1.0');
  });

  it('re-checks quicker on the update screens, and from the "Check for updates" link', async () => {
    await wpRun('set-state', { slug: SLUG, ago: { checked_at: 120 } });
    const count = serviceRequests().length;
    await admin.request('/wp-admin/index.php'); // elsewhere: 12 hours
    await admin.request('/wp-admin/plugins.php'); // Plugins: 1 hour
    expect(serviceRequests().length).toBe(count);
    await admin.request('/wp-admin/update-core.php'); // Dashboard → Updates: 1 minute
    expect(serviceRequests().length).toBe(count + 1);

    const plugins = await admin.request('/wp-admin/plugins.php');
    const link = /href="([^"]*licensing_check=sample-licensed-plugin[^"]*)"/.exec(plugins.text)?.[1];
    expect(link, 'a "Check for updates" link').toBeDefined();
    const checked = await admin.request(decodeHref(link!));
    expect(checked.status).toBe(302);
    expect(serviceRequests().length).toBe(count + 2);
    const notice = await admin.request(checked.location!.replace(site, ''));
    expect(notice.text).toContain('Sample Licensed Plugin is up to date.');
    // Without its nonce the link does nothing.
    const forged = await admin.request('/wp-admin/plugins.php?licensing_check=sample-licensed-plugin');
    expect(forged.status).not.toBe(302);
    expect(serviceRequests().length).toBe(count + 2);
  });

  it('makes no request on ordinary admin pages, and sends the site PHP, WordPress, address and channel', async () => {
    // The stored answer is old, but WordPress's own update data is fresh: the dashboard asks nobody.
    await wpRun('update-plugins');
    await wpRun('set-state', { slug: SLUG, ago: { checked_at: 13 * 3600 } });
    const count = serviceRequests().length;
    for (const path of ['/wp-admin/', '/wp-admin/options-general.php', '/wp-admin/edit.php']) {
      expect((await admin.request(path)).status).toBe(200);
    }
    expect(serviceRequests().length).toBe(count);

    // A release the site's PHP cannot run is not offered; the update screen's check says what the site runs.
    await publish('1.2.0', pluginFiles('1.2.0', pluginConfig()), SLUG, { releaseNotes: 'Needs a future PHP.', requiresPhp: '99.0' });
    const updateCore = await admin.request('/wp-admin/update-core.php');
    expect(updateCore.status).toBe(200);
    const [sent] = serviceRequests().slice(count);
    const query = new URL(sent!.url).searchParams;
    const { php, wp: wordpress } = await wpRun('versions');
    expect(Object.fromEntries(['slug', 'version', 'channel', 'php', 'wp', 'domain'].map((name) => [name, query.get(name)]))).toEqual({
      slug: SLUG,
      version: '1.1.0',
      channel: 'stable',
      php,
      wp: wordpress,
      domain: site,
    });
    expect(php).toMatch(/^\d+\.\d+\.\d+$/);
    expect(updateCore.text).not.toContain('Update to 1.2.0');
    expect((await wpRun('state', { slug: SLUG })).state.info.new_version).toBe('1.1.0');
  });

  it('offers a beta release only on a beta license, once "Beta updates" is on', async () => {
    await publish('1.3.0-beta.1', pluginFiles('1.3.0-beta.1', pluginConfig()), SLUG, { releaseNotes: 'Beta things.', channel: 'beta' });
    // The stable license: no opt-in to show, and no beta offered.
    let page = await admin.request('/wp-admin/options-general.php?page=sample-licensed-plugin');
    expect(page.text).not.toContain('Beta updates');
    expect((await admin.request('/wp-admin/update-core.php')).text).not.toContain('1.3.0-beta.1');

    const created = await vendor.post('/api/licenses', { productId: product.id, customerEmail: 'beta@example.com', seats: 1, channel: 'beta' });
    expect(created.status, created.text).toBe(201);
    betaKey = created.body;
    await licenseBox('deactivate');
    page = await licenseBox('activate', betaKey.licenseKey);
    expect(page.text).toContain('Beta updates: also offer pre-releases of this plugin');
    expect(page.text).not.toMatch(/name="licensing_beta" value="1" checked/);
    // Not opted in yet: still stable.
    expect((await admin.request('/wp-admin/update-core.php')).text).not.toContain('1.3.0-beta.1');

    page = await licenseBoxBeta(true);
    expect(page.text).toContain('Beta updates are on');
    expect(page.text).toMatch(/name="licensing_beta" value="1" checked/);
    const count = serviceRequests().length;
    const updateCore = await admin.request('/wp-admin/update-core.php');
    expect(updateCore.text).toMatch(/You have version 1\.1\.0 installed\. Update to 1\.3\.0-beta\.1/);
    expect(new URL(serviceRequests()[count]!.url).searchParams.get('channel')).toBe('beta');

    page = await licenseBoxBeta(false);
    expect(page.text).toContain('Beta updates are off');
    expect((await admin.request('/wp-admin/update-core.php')).text).not.toContain('1.3.0-beta.1');
  });

  it('rolls back to an earlier version through WordPress\'s upgrader, from the "Roll back" link', async () => {
    const plugins = await admin.request('/wp-admin/plugins.php');
    const link = /href="([^"]*action=licensing_rollback_sample-licensed-plugin[^"]*)"/.exec(plugins.text)?.[1];
    expect(link, 'a "Roll back" link').toBeDefined();
    const list = await admin.request(decodeHref(link!));
    expect(list.status).toBe(200);
    // Every version the beta license may have, newest first, requirements or not; the installed one marked.
    const listed = [...list.text.matchAll(/<tr><td>([^<]+)<\/td><td>(stable|beta)<\/td>/g)].map((m) => `${m[1]} ${m[2]}`);
    expect(listed).toEqual(['1.3.0-beta.1 beta', '1.2.0 stable', '1.1.0 stable', '1.0.0 stable']);
    expect(list.text).toContain('PHP 99.0');
    const install = /href="([^"]*version=1\.0\.0[^"]*)"/.exec(list.text)?.[1];
    expect(install, 'an "Install 1.0.0" link').toBeDefined();
    const installed = await admin.request(decodeHref(install!));
    expect(installed.status).toBe(200);
    expect(installed.text).toContain('Plugin updated successfully.');
    // As after an update, WordPress's page reactivates the plugin in a frame.
    const reactivate = /<iframe[^>]+src="([^"]*action=activate-plugin[^"]*)"/.exec(installed.text)?.[1];
    expect(reactivate, 'the reactivation frame').toBeDefined();
    expect((await admin.request(decodeHref(reactivate!))).location).toContain('success=true');
    const disk = await wpRun('disk');
    expect(disk).toMatchObject({ version: '1.0.0', other_plugin_dirs: [], active: true });
    expect(disk.files).toContain('CHANGES-1.0.0.txt');
    expect(disk.files).not.toContain('CHANGES-1.1.0.txt');

    // A forged version link (no nonce of its own) installs nothing.
    const forged = await admin.request(decodeHref(install!).replace('1.0.0', '1.1.0'));
    expect(forged.text).not.toContain('Plugin updated successfully.');
    expect((await wpRun('disk')).version).toBe('1.0.0');
  });

  it('tells an expired license "Renew your license to update to X", linked to its plan\'s checkout', async () => {
    const plan = await vendor.post(`/api/products/${product.id}/plans`, { name: 'Pro', billingCycle: 'yearly', price: 49, currency: 'usd' });
    expect(plan.status, plan.text).toBe(201);
    const created = await vendor.post('/api/licenses', { productId: product.id, customerEmail: 'renew@example.com', planId: plan.body.id });
    expect(created.status, created.text).toBe(201);
    await licenseBox('deactivate');
    expect((await licenseBox('activate', created.body.licenseKey)).text).toContain('Active on this site');
    const expired = await vendor.put(`/api/licenses/${created.body.id}`, { expiresAt: new Date(Date.now() - 86_400_000).toISOString() });
    expect(expired.status, expired.text).toBe(200);

    await wpRun('set-state', { slug: SLUG, ago: { checked_at: 2 * 3600 } });
    const plugins = await admin.request('/wp-admin/plugins.php');
    expect(plugins.text).toContain('There is a new version of Sample Licensed Plugin available');
    expect(plugins.text).toContain('Renew your license to update to 1.1.0.');
    const checkout = `${stack.url}/public/v1/checkout/${plan.body.id.replace(/^pln_/, 'plan_')}?public_key=${product.public_key}`;
    expect(decodeHref(/class="licensing-renewal-link" href="([^"]+)"/.exec(plugins.text)![1]!, false)).toBe(checkout);
    expect(plugins.text).not.toContain('Your license key cannot download this update');
    const update = await wpRun('update-plugins');
    expect(update.entry).toMatchObject({ new_version: '1.1.0', package: '', upgrade_notice: 'Renew your license to update to 1.1.0' });
  });

  it('keeps admin pages fast while the service is stopped or hanging, and caches the failure, backing off', async () => {
    // The service stopped: refused connections.
    await wpRun('set-state', { slug: SLUG, ago: { checked_at: 13 * 3600 } });
    const port = stack.port;
    await stack.stop();
    stackStopped = true;
    let before = serviceRequests().length;
    const stopped = await admin.request('/wp-admin/plugins.php');
    expect(stopped.status).toBe(200);
    expect(stopped.ms).toBeLessThan(6000);
    expect(serviceRequests().length).toBe(before + 1);
    const cached = await admin.request('/wp-admin/plugins.php');
    expect(cached.status).toBe(200);
    expect(cached.ms).toBeLessThan(1000); // the cached failure: no request
    expect(serviceRequests().length).toBe(before + 1);
    let { state } = await wpRun('state', { slug: SLUG });
    expect(state.failed_at).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(state.error).toMatch(/could not be reached/);
    expect(state.error).not.toContain(goodKey.licenseKey);
    expect(state.info.new_version).toBe('1.1.0'); // the last good answer stays
    expect(state.expires - state.failed_at).toBe(3600);
    expect(state.failures).toBe(1);

    before = serviceRequests().length;
    const again = await admin.request('/wp-admin/update-core.php');
    expect(again.status).toBe(200);
    expect(serviceRequests().length).toBe(before); // backing off: no request at all

    // The service hanging: a server that accepts and never answers. Once the hour has passed, one bounded attempt.
    const hang = await stallServer(port);
    stops.push(hang.close);
    await wpRun('set-state', { slug: SLUG, ago: { failed_at: 2 * 3600 } });
    const slow = await admin.request('/wp-admin/plugins.php');
    expect(slow.status).toBe(200);
    expect(slow.ms).toBeGreaterThanOrEqual(4900); // the request's budget: 5 s
    expect(slow.ms).toBeLessThan(7000);
    expect(hang.connections()).toBe(1);
    ({ state } = await wpRun('state', { slug: SLUG }));
    expect(state.failed_at).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(state.error).toMatch(/within 5 s/);
    expect(state.failures).toBe(2);
    expect(state.expires - state.failed_at).toBe(2 * 3600); // the second failure in a row: two hours
    expect(state.error).not.toContain(goodKey.licenseKey); // error messages never carry the key

    for (const path of ['/wp-admin/plugins.php', '/wp-admin/update-core.php', '/wp-admin/']) {
      const fast = await admin.request(path);
      expect(fast.status).toBe(200);
      expect(fast.ms).toBeLessThan(2500);
    }
    expect(hang.connections()).toBe(1);
  });

  it("left no PHP warning or error of the library in WordPress's debug log", () => {
    let log = '';
    for (const debugLog of [wp.debugLog, network?.debugLog]) {
      try {
        log += readFileSync(debugLog!, 'utf8');
      } catch {
        // no log at all: nothing was reported
      }
    }
    const ours = log.split('\n').filter((line) => /PHP Fatal|wp-content\/(plugins\/sample-licensed-plugin|mu-plugins)\/|tests\/wordpress\/fixtures/.test(line));
    expect(ours).toEqual([]);
  });
});

async function releases(): Promise<Record<string, { id: string; downloadCount: number }>> {
  // The stack is gone in the last test; only called while it runs.
  const res = await vendor.get(`/api/products/${product.id}/releases`);
  return Object.fromEntries(res.body.items.map((r: { version: string }) => [r.version, r]));
}
