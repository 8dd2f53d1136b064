import { randomUUID } from 'node:crypto';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, inject, it } from 'vitest';
import { newTenant } from '../../support/client.js';
import { addPlatformFile } from '../../support/desktop-fixtures.js';
import { newLicense, newProduct, newRelease, plugin } from '../../support/licensing-fixtures.js';
import { checkWithTauri } from '../../support/tauri-updater.js';
import { sparkleFeedUrl, tauriEndpoint } from '../../../clients/js/src/desktop-feeds.js';

const SPARKLE = 'http://www.andymatuschak.org/xml-namespaces/sparkle';
const base = () => inject('baseUrl');
const edge = () => plugin();
const keyQuery = (licenseKey: string, machine?: string) => new URLSearchParams({ license_key: licenseKey, ...(machine && { machine }) }).toString();
const get = (path: string) => edge().get(path, { origin: null });

/** A desktop product: 1.0.0 and 2.0.0 (stable) with files for macOS (both) and Windows x64, and 2.1.0 on beta. */
async function desktopProduct(productFields: Record<string, unknown> = {}) {
  const tenant = await newTenant();
  const product = await newProduct(tenant, { productType: 'app', ...productFields });
  const old = await newRelease(tenant, product.id, { version: '1.0.0' });
  await addPlatformFile(tenant, product.id, old.id, 'macos-arm64', 'Notes-1.0.0-arm64.zip', { signature: 'sig-old' });
  const current = await newRelease(tenant, product.id, { version: '2.0.0', releaseNotes: 'Faster <sync> & "search"', requires: '12.0' });
  const mac = await addPlatformFile(tenant, product.id, current.id, 'macos-arm64', 'Notes-2.0.0-arm64.zip', { signature: 'c2lnbmF0dXJlIG9mIDIuMC4w' });
  await addPlatformFile(tenant, product.id, current.id, 'macos-x64', 'Notes-2.0.0-x64.zip');
  const win = await addPlatformFile(tenant, product.id, current.id, 'windows-x64', 'Notes_2.0.0_x64-setup.nsis.zip', { signature: 'dW50cnVzdGVkIGNvbW1lbnQ=' });
  const beta = await newRelease(tenant, product.id, { version: '2.1.0', channel: 'beta' });
  await addPlatformFile(tenant, product.id, beta.id, 'windows-x64', 'Notes_2.1.0_x64-setup.nsis.zip', { signature: 'beta-sig' });
  return { tenant, product, current, beta, mac, win };
}

describe('Tauri 2 updater endpoint (DECISIONS §26)', () => {
  it("answers the Tauri updater's schema: an update when newer, 204 when current; its URL downloads the file", async () => {
    const { tenant, product, current, win } = await desktopProduct();
    const license = await newLicense(tenant, product.id);
    const endpoint = tauriEndpoint({ baseUrl: base(), productSlug: product.slug, licenseKey: license.licenseKey });

    const update = await checkWithTauri(endpoint, { target: 'windows', arch: 'x86_64', currentVersion: '1.0.0' });
    expect(update).toMatchObject({ version: '2.0.0', currentVersion: '1.0.0', body: 'Faster <sync> & "search"', date: expect.any(String) });
    expect(update!.rawJson).toEqual({
      version: '2.0.0',
      notes: 'Faster <sync> & "search"',
      pub_date: expect.any(String),
      url: `${base()}/v1/download/${current.id}/windows-x64/Notes_2.0.0_x64-setup.nsis.zip?${keyQuery(license.licenseKey)}`,
      signature: 'dW50cnVzdGVkIGNvbW1lbnQ=',
    });
    const download = await get(new URL(update!.rawJson.url as string).pathname + new URL(update!.rawJson.url as string).search);
    expect(download.status).toBe(302);
    expect(Buffer.from(await (await fetch(download.headers.get('location')!)).arrayBuffer()).equals(win.build.bytes)).toBe(true);

    expect(await checkWithTauri(endpoint, { target: 'windows', arch: 'x86_64', currentVersion: '2.0.0' })).toBeNull();
    // No file for Linux: nothing to offer.
    expect(await checkWithTauri(endpoint, { target: 'linux', arch: 'x86_64', currentVersion: '0.1.0' })).toBeNull();
    const plain = await get(`/v1/feeds/${product.slug}/tauri/windows/x86_64/2.0.0?${keyQuery(license.licenseKey)}`);
    expect([plain.status, plain.text]).toEqual([204, '']);

    const betaKey = await newLicense(tenant, product.id, { channel: 'beta' });
    const betaEndpoint = endpoint.replace(license.licenseKey, betaKey.licenseKey);
    expect((await checkWithTauri(betaEndpoint, { target: 'windows', arch: 'x86_64', currentVersion: '2.0.0' }))?.version).toBe('2.1.0');
  });
});

describe('Sparkle appcast (DECISIONS §26)', () => {
  it("is RSS in Sparkle's namespace whose items carry the versions and the enclosure Sparkle requires", async () => {
    const { tenant, product, current, mac } = await desktopProduct();
    const license = await newLicense(tenant, product.id);
    const appcastUrl = sparkleFeedUrl({ baseUrl: base(), productSlug: product.slug, licenseKey: license.licenseKey });
    const res = await get(appcastUrl.slice(base().length));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(XMLValidator.validate(res.text)).toBe(true);

    const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false, isArray: (name) => name === 'item' }).parse(res.text);
    expect(doc.rss['@xmlns:sparkle']).toBe(SPARKLE);
    const items = doc.rss.channel.item;
    expect(items.map((item: Record<string, string>) => item['sparkle:version'])).toEqual(['2.0.0', '1.0.0']);
    const [newest] = items;
    expect(newest['sparkle:shortVersionString']).toBe('2.0.0');
    expect(newest['sparkle:minimumSystemVersion']).toBe('12.0');
    expect(newest.description).toBe('Faster <sync> & "search"');
    expect(newest.enclosure).toEqual({
      '@url': `${base()}/v1/download/${current.id}/macos-arm64/Notes-2.0.0-arm64.zip?${keyQuery(license.licenseKey)}`,
      '@length': String(mac.build.bytes.length),
      '@type': 'application/octet-stream',
      '@sparkle:edSignature': 'c2lnbmF0dXJlIG9mIDIuMC4w',
    });
    expect(items[1]['sparkle:minimumSystemVersion']).toBeUndefined();
  });
});

describe('who gets a feed (DECISIONS §26)', () => {
  it('answers a product with no platform files with empty feeds', async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant, { productType: 'app' });
    await newRelease(tenant, product.id, { version: '1.0.0' });
    const key = keyQuery((await newLicense(tenant, product.id)).licenseKey);

    const electron = await get(`/v1/feeds/${product.slug}/electron/latest.yml?${key}`);
    expect([electron.status, electron.text]).toEqual([200, 'version: "0.0.0"\nfiles: []\n']);
    expect((await get(`/v1/feeds/${product.slug}/tauri/darwin/aarch64/1.0.0?${key}`)).status).toBe(204);
    const appcast = await get(`/v1/feeds/${product.slug}/sparkle/appcast.xml?${key}`);
    expect(appcast.status).toBe(200);
    expect(new XMLParser().parse(appcast.text).rss.channel.item).toBeUndefined();
  });

  it("refuses another product's key, an unknown product, and bad path values", async () => {
    const { tenant, product } = await desktopProduct();
    const other = await newProduct(tenant, { productType: 'app' });
    const foreign = await newLicense(tenant, other.id);
    const key = keyQuery(foreign.licenseKey);
    for (const path of ['electron/latest-mac.yml', 'tauri/darwin/aarch64/1.0.0', 'sparkle/appcast.xml']) {
      const res = await get(`/v1/feeds/${product.slug}/${path}?${key}`);
      expect([res.status, res.body], path).toEqual([403, { error: 'License does not belong to this product' }]);
    }
    const own = keyQuery((await newLicense(tenant, product.id)).licenseKey);
    expect((await get(`/v1/feeds/no-such-${randomUUID().slice(0, 8)}/electron/latest.yml?${own}`)).body).toEqual({ error: 'Product not found' });
    expect((await get(`/v1/feeds/${product.slug}/electron/latest.yml`)).body.error).toBe('license_key is required');
    const target = await get(`/v1/feeds/${product.slug}/tauri/freebsd/x86_64/1.0.0?${own}`);
    expect([target.status, target.text]).toEqual([400, expect.stringContaining('windows, darwin, linux')]);
    expect((await get(`/v1/feeds/${product.slug}/tauri/darwin/aarch64/not-a-version?${own}`)).status).toBe(400);
    expect((await get(`/v1/feeds/${product.slug}/electron/latest.yml?${keyQuery('NOPE-AAAA-BBBB-CCCC-DDDD')}`)).status).toBe(403);
  });

  it("serves a floating license's machine only while it holds a live lease, the feed and its files alike", async () => {
    const { tenant, product, current } = await desktopProduct();
    const license = await newLicense(tenant, product.id, { floating: true, seats: 1 });
    const feed = (machine?: string) => get(`/v1/feeds/${product.slug}/electron/latest-mac.yml?${keyQuery(license.licenseKey, machine)}`);
    const file = (machine?: string) => get(`/v1/download/${current.id}/macos-arm64/Notes-2.0.0-arm64.zip?${keyQuery(license.licenseKey, machine)}`);
    const noLease = { error: 'No live lease for this machine' };

    for (const res of [await feed('mac-1'), await feed(), await file('mac-1'), await file()]) expect([res.status, res.body]).toEqual([403, noLease]);
    const lease = await edge().post('/v1/licenses/leases', { license_key: license.licenseKey, machine: 'mac-1' }, { origin: null });
    expect(lease.status, lease.text).toBe(201);

    const yml = await feed('mac-1');
    expect(yml.status).toBe(200);
    expect(yml.text).toContain(`/v1/download/${current.id}/macos-arm64/Notes-2.0.0-arm64.zip?license_key=${license.licenseKey}&machine=mac-1`);
    expect((await file('mac-1')).status).toBe(302);
    expect((await file('mac-2')).body).toEqual(noLease);

    await edge().delete(`/v1/licenses/leases/${lease.body.lease_id}?license_key=${license.licenseKey}`, { origin: null });
    expect((await file('mac-1')).body).toEqual(noLease);
  });

  it('counts file downloads as downloads of the release and refuses a file the release does not have', async () => {
    const { tenant, product, current } = await desktopProduct();
    const key = keyQuery((await newLicense(tenant, product.id)).licenseKey);
    expect((await get(`/v1/download/${current.id}/macos-x64/Notes-2.0.0-x64.zip?${key}`)).status).toBe(302);
    expect((await get(`/v1/download/${current.id}/linux-x64/Notes-2.0.0-x64.zip?${key}`)).body).toEqual({ error: 'File not found' });
    expect((await get(`/v1/download/${current.id}/macos-x64/other.zip?${key}`)).body).toEqual({ error: 'File not found' });
    expect((await get(`/v1/download/${current.id}/beos-x64/other.zip?${key}`)).status).toBe(400);
    expect((await tenant.get(`/api/products/${product.id}/releases/${current.id}`)).body.downloadCount).toBe(1);
  });
});
