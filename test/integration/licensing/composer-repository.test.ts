import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { newTenant } from '../../support/client.js';
import { eventually, newLicense, newProduct, newRelease, plugin, type Tenant } from '../../support/licensing-fixtures.js';
import { pluginZip } from '../../support/plugin-zip.js';

const run = promisify(execFile);
const basic = (user: string, password = 'https://shop.example') => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const composerGet = (path: string, licenseKey?: string) =>
  plugin().get(`/composer${path}`, { origin: null, headers: licenseKey === undefined ? {} : { authorization: basic(licenseKey) } });

/** A plugin's release ZIP, its files under one folder as WordPress plugins ship. */
const releaseZip = (version: string) =>
  pluginZip({ 'acme-widgets/acme-widgets.php': `<?php\n/*\nPlugin Name: Acme Widgets\nVersion: ${version}\n*/\n`, 'acme-widgets/readme.txt': `=== Acme ===\nStable tag: ${version}\n` });

async function composerVendor(tenant: Tenant): Promise<string> {
  const res = await tenant.get('/api/account/settings');
  expect(res.status, res.text).toBe(200);
  return res.body.composerVendor;
}

async function vendorProduct(fields: Record<string, unknown> = {}) {
  const tenant = await newTenant();
  const product = await newProduct(tenant, { productType: 'plugin', requiresPhp: '7.4', ...fields });
  return { tenant, product, vendor: await composerVendor(tenant) };
}

const projects: string[] = [];
afterAll(() => projects.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/**
 * A customer's project: `composer.json` naming the repository (and no Packagist, so nothing reaches the internet) and
 * `auth.json` with the license key, in a temp directory with a Composer home and cache of its own.
 */
function composerProject(licenseKey: string, minimumStability = 'stable') {
  const dir = mkdtempSync(join(tmpdir(), 'composer-project-'));
  projects.push(dir);
  const base = new URL(inject('baseUrl'));
  const json = (name: string, value: unknown) => writeFileSync(join(dir, name), JSON.stringify(value, null, 2));
  json('composer.json', {
    name: 'agency/site',
    type: 'project',
    'minimum-stability': minimumStability,
    repositories: [{ type: 'composer', url: `${base.origin}/composer` }, { 'packagist.org': false }],
    config: { 'secure-http': false },
  });
  json('auth.json', { 'http-basic': { [base.host]: { username: licenseKey, password: 'https://agency-site.example' } } });
  const env = { ...process.env, COMPOSER_HOME: join(dir, '.composer'), COMPOSER_CACHE_DIR: join(dir, '.cache'), COMPOSER_NO_INTERACTION: '1', COMPOSER_ALLOW_SUPERUSER: '1' };
  return {
    dir,
    composer: (...args: string[]) => run('composer', [...args, '--no-interaction', '--no-ansi'], { cwd: dir, env, timeout: 60_000 }),
    installed: (name: string) => {
      const lock = JSON.parse(readFileSync(join(dir, 'composer.lock'), 'utf8')) as { packages: { name: string; version: string }[] };
      return lock.packages.find((p) => p.name === name)?.version;
    },
  };
}

describe('the Composer repository over HTTP', () => {
  it('answers 401 with a Basic challenge to a missing, unknown or revoked key', async () => {
    const { tenant, product } = await vendorProduct();
    await newRelease(tenant, product.id, { version: '1.0.0' }, await releaseZip('1.0.0'));
    const license = await newLicense(tenant, product.id);
    expect((await composerGet('/packages.json', license.licenseKey)).status).toBe(200);
    for (const key of [undefined, 'NOPE-AAAA-BBBB-CCCC-DDDD', '']) {
      const res = await composerGet('/packages.json', key);
      expect(res.status, res.text).toBe(401);
      expect(res.headers.get('www-authenticate')).toBe('Basic realm="Composer repository"');
    }
    expect((await tenant.post(`/api/licenses/${license.id}/revoke`)).status).toBe(200);
    const revoked = await composerGet('/packages.json', license.licenseKey);
    expect([revoked.status, revoked.body, revoked.headers.get('www-authenticate')]).toEqual([401, { error: 'License has been revoked' }, 'Basic realm="Composer repository"']);
  });

  it("lists the key's package with the versions on its channels, their SHA-1, type and PHP requirement", async () => {
    const { tenant, product, vendor } = await vendorProduct();
    const zip = await releaseZip('1.0.0');
    const stable = await newRelease(tenant, product.id, { version: '1.0.0' }, zip);
    const beta = await newRelease(tenant, product.id, { version: '1.1.0-beta1', channel: 'beta', requiresPhp: '8.1' }, await releaseZip('1.1.0-beta1'));
    await newRelease(tenant, product.id, { version: '1.2.0', status: 'draft' });
    const stableKey = await newLicense(tenant, product.id);
    const betaKey = await newLicense(tenant, product.id, { channel: 'beta' });
    const name = `${vendor}/${product.slug}`;

    const root = await composerGet('/packages.json', stableKey.licenseKey);
    expect(root.body).toEqual({ packages: {}, 'metadata-url': `${inject('baseUrl')}/composer/p2/%package%.json`, 'available-packages': [name] });
    const metadata = await composerGet(`/p2/${name}.json`, stableKey.licenseKey);
    expect(metadata.status, metadata.text).toBe(200);
    const sha1 = (await import('node:crypto')).createHash('sha1').update(zip).digest('hex');
    expect(metadata.body.packages[name]).toEqual([
      expect.objectContaining({
        name,
        version: '1.0.0',
        type: 'wordpress-plugin',
        require: { php: '>=7.4' },
        dist: { type: 'zip', url: `${inject('baseUrl')}/composer/dist/${name}/${stable.id}.zip`, shasum: sha1 },
      }),
    ]);
    const betaVersions = (await composerGet(`/p2/${name}.json`, betaKey.licenseKey)).body.packages[name];
    expect(betaVersions.map((v: any) => [v.version, v.require])).toEqual([['1.1.0-beta1', { php: '>=8.1' }], ['1.0.0', { php: '>=7.4' }]]);
    expect((await composerGet(`/p2/${name}~dev.json`, stableKey.licenseKey)).body).toEqual({ packages: { [name]: [] } });
    // Another channel's release is not the stable key's to download.
    expect((await composerGet(`/dist/${name}/${beta.id}.zip`, stableKey.licenseKey)).status).toBe(404);
  });

  it("answers 404 for another account's package and for any path outside the repository", async () => {
    const { tenant, product, vendor } = await vendorProduct();
    await newRelease(tenant, product.id, { version: '1.0.0' }, await releaseZip('1.0.0'));
    const license = await newLicense(tenant, product.id);
    const other = await vendorProduct();
    const foreign = await newRelease(other.tenant, other.product.id, { version: '1.0.0' }, await releaseZip('1.0.0'));
    const unlicensed = await newProduct(tenant, { productType: 'theme' });
    const paths = [
      `/p2/${other.vendor}/${other.product.slug}.json`,
      `/p2/${vendor}/${other.product.slug}.json`,
      `/p2/${other.vendor}/${product.slug}.json`,
      `/p2/${vendor}/${unlicensed.slug}.json`,
      `/dist/${other.vendor}/${other.product.slug}/${foreign.id}.zip`,
      `/dist/${vendor}/${product.slug}/${foreign.id}.zip`,
      `/p2/${vendor.toUpperCase()}/${product.slug}.json`,
      `/p2/${vendor}/${product.slug}`,
      '/',
      '/p2/',
      `/p2/${vendor}/`,
      '/dist/',
      '/packages.json/x',
      '/..%2f..%2fapi%2fproducts',
      `/dist/${vendor}/${product.slug}/..%2f..%2fpackages.json`,
    ];
    for (const path of paths) {
      const res = await composerGet(path, license.licenseKey);
      expect([path, res.status]).toEqual([path, 404]);
      // Never a listing: the service's error, or (for `/composer/` itself, which no route matches) the gateway's.
      expect([path, Object.keys(res.body)]).toEqual([path, [path === '/' ? 'message' : 'error']]);
    }
  });

  it('serves an expired key only what its product keeps after expiry', async () => {
    const { tenant, product, vendor } = await vendorProduct();
    const name = `${vendor}/${product.slug}`;
    const before = await newRelease(tenant, product.id, { version: '1.0.0' }, await releaseZip('1.0.0'));
    const license = await newLicense(tenant, product.id);
    const expired = await tenant.put(`/api/licenses/${license.id}`, { expiresAt: new Date().toISOString() });
    await eventually(async () => Date.now(), (now) => now > Date.parse(expired.body.expiresAt));
    const after = await newRelease(tenant, product.id, { version: '2.0.0' }, await releaseZip('2.0.0'));
    const none = await composerGet('/packages.json', license.licenseKey);
    expect([none.status, none.body]).toEqual([401, { error: 'License has expired' }]);

    await tenant.put(`/api/products/${product.id}`, { updatesAfterExpiry: 'releasedBeforeExpiry' });
    expect((await composerGet('/packages.json', license.licenseKey)).body['available-packages']).toEqual([name]);
    expect((await composerGet(`/p2/${name}.json`, license.licenseKey)).body.packages[name].map((v: any) => v.version)).toEqual(['1.0.0']);
    expect((await composerGet(`/dist/${name}/${before.id}.zip`, license.licenseKey)).status).toBe(302);
    expect((await composerGet(`/dist/${name}/${after.id}.zip`, license.licenseKey)).body).toEqual({ error: 'License has expired' });
  });

  it('counts every download, and a sighting once per key and version', async () => {
    const { tenant, product, vendor } = await vendorProduct();
    const name = `${vendor}/${product.slug}`;
    const first = await newRelease(tenant, product.id, { version: '1.0.0' }, await releaseZip('1.0.0'));
    const second = await newRelease(tenant, product.id, { version: '1.1.0' }, await releaseZip('1.1.0'));
    const license = await newLicense(tenant, product.id);
    for (const release of [first, first, second]) {
      const res = await composerGet(`/dist/${name}/${release.id}.zip`, license.licenseKey);
      expect(res.status, res.text).toBe(302);
      expect((await fetch(res.headers.get('location')!)).status).toBe(200);
    }
    const releases = (await tenant.get(`/api/products/${product.id}/releases`)).body.items as { id: string; downloadCount: number }[];
    expect(Object.fromEntries(releases.map((r) => [r.id, r.downloadCount]))).toEqual({ [first.id]: 2, [second.id]: 1 });
    // Seats are not taken.
    expect((await tenant.get(`/api/licenses/${license.id}`)).body.activatedCount).toBe(0);
    const today = new Date().toISOString().slice(0, 10);
    const sightings = async () => ((await tenant.get(`/api/analytics/overview?product_id=${product.id}`)).body.installsByDay as { date: string; count: number }[]).find((d) => d.date === today)?.count ?? 0;
    // The queue is worked in order: once the second version's sighting is counted, the first's repeat would be too.
    expect(await eventually(sightings, (count) => count >= 2)).toBe(2);
  });
});

describe('the real Composer against the repository', () => {
  it('requires, updates, takes a beta with minimum-stability, lists only what the key may install, and fails on a revoked key', async () => {
    const { tenant, product, vendor } = await vendorProduct();
    const name = `${vendor}/${product.slug}`;
    await newRelease(tenant, product.id, { version: '1.0.0' }, await releaseZip('1.0.0'));
    const unlicensed = await newProduct(tenant, { productType: 'library' });
    await newRelease(tenant, unlicensed.id, { version: '3.0.0' }, await releaseZip('3.0.0'));
    const license = await newLicense(tenant, product.id);

    const site = composerProject(license.licenseKey);
    await site.composer('require', name);
    expect(site.installed(name)).toBe('1.0.0');
    expect(readFileSync(join(site.dir, 'vendor', vendor, product.slug, 'acme-widgets.php'), 'utf8')).toContain('Version: 1.0.0');

    await newRelease(tenant, product.id, { version: '1.1.0' }, await releaseZip('1.1.0'));
    await newRelease(tenant, product.id, { version: '1.2.0-beta1', channel: 'beta' }, await releaseZip('1.2.0-beta1'));
    await site.composer('update', name);
    expect(site.installed(name)).toBe('1.1.0');
    expect(readFileSync(join(site.dir, 'vendor', vendor, product.slug, 'acme-widgets.php'), 'utf8')).toContain('Version: 1.1.0');

    const listed = JSON.parse((await site.composer('show', '--all', '--format=json')).stdout) as { available: { name: string }[] };
    expect(listed.available.map((p) => p.name)).toEqual([name]);
    const versions = JSON.parse((await site.composer('show', '--all', name, '--format=json')).stdout) as { versions: string[] };
    expect(versions.versions).toEqual(['1.1.0', '1.0.0']);

    const betaKey = await newLicense(tenant, product.id, { channel: 'beta' });
    const betaSite = composerProject(betaKey.licenseKey, 'beta');
    await betaSite.composer('require', `${name}:^1.2@beta`);
    expect(betaSite.installed(name)).toBe('1.2.0-beta1');

    expect((await tenant.post(`/api/licenses/${license.id}/revoke`)).status).toBe(200);
    rmSync(join(site.dir, 'vendor'), { recursive: true });
    const failed = await site.composer('update', name).then(() => undefined, (error: { code: number; stderr: string }) => error);
    expect(failed?.code).not.toBe(0);
    // Composer's own authentication failure (non-interactive: it cannot ask for other credentials).
    expect(failed?.stderr).toMatch(/composer\/packages\.json' URL required authentication \(HTTP 401\)/);
    expect(existsSync(join(site.dir, 'vendor', vendor, product.slug))).toBe(false);
  });
});
