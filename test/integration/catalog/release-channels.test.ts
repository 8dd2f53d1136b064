import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { rolloutBucket } from '../../../shared/catalog/releases/channels.js';
import { Client, newTenant } from '../../support/client.js';
import { eventually, newLicense, newProduct, newRelease, plugin, type Tenant } from '../../support/licensing-fixtures.js';
import { pluginZip } from '../../support/plugin-zip.js';
import { startReceiver, type Receiver } from '../../support/webhook-receiver.js';

const updateCheck = (params: Record<string, string>) => plugin().get(`/v1/wp/update-check?${new URLSearchParams(params)}`, { origin: null });
const versions = (params: Record<string, string>) => plugin().get(`/v1/wp/versions?${new URLSearchParams(params)}`, { origin: null });
const download = (releaseId: string, licenseKey: string) =>
  plugin().get(`/v1/download/${releaseId}?license_key=${encodeURIComponent(licenseKey)}`, { origin: null });
const packageOf = (releaseId: string, licenseKey: string) =>
  `${inject('baseUrl')}/v1/download/${releaseId}?license_key=${encodeURIComponent(licenseKey)}`;

/** Domains on either side of a release's rollout percentage (DECISIONS §14's hash). */
function domainsAround(releaseId: string, percent: number) {
  const candidates = Array.from({ length: 200 }, (_, i) => `site-${i}.example`);
  return {
    inside: candidates.find((domain) => rolloutBucket(releaseId, domain) < percent)!,
    outside: candidates.find((domain) => rolloutBucket(releaseId, domain) >= percent)!,
  };
}

async function productWithPlan(tenant: Tenant, fields: Record<string, unknown> = {}, planChannel = 'stable') {
  const product = await newProduct(tenant, fields);
  const plan = await tenant.post(`/api/products/${product.id}/plans`, { name: 'Pro', billingCycle: 'yearly', price: 49, currency: 'usd', channel: planChannel });
  expect(plan.status, plan.text).toBe(201);
  return { product, plan: plan.body as { id: string; channel: string } };
}

describe('release channels, requirements and rollouts', () => {
  it("offers the newest release on the channels the license allows, capped by the site's choice", async () => {
    const tenant = await newTenant();
    const { product, plan } = await productWithPlan(tenant, {}, 'alpha');
    const stableKey = await newLicense(tenant, product.id);
    const betaKey = await newLicense(tenant, product.id, { channel: 'beta' });
    const alphaKey = await newLicense(tenant, product.id, { planId: plan.id });
    expect([stableKey, betaKey, alphaKey].map((l: any) => l.channel)).toEqual(['stable', 'beta', 'alpha']);
    const stable = await newRelease(tenant, product.id, { version: '1.0.0', channel: 'stable' });
    const beta = await newRelease(tenant, product.id, { version: '1.1.0-beta.1', channel: 'beta' });
    const alpha = await newRelease(tenant, product.id, { version: '1.2.0-alpha.1', channel: 'alpha' });

    const offered = async (licenseKey: string, channel?: string) => {
      const res = await updateCheck({ slug: product.slug, license_key: licenseKey, version: '1.0.0', ...(channel && { channel }) });
      expect(res.status, res.text).toBe(200);
      return [res.body.new_version, res.body.package];
    };
    expect(await offered(stableKey.licenseKey)).toEqual(['1.0.0', packageOf(stable.id, stableKey.licenseKey)]);
    expect(await offered(stableKey.licenseKey, 'beta')).toEqual(['1.0.0', packageOf(stable.id, stableKey.licenseKey)]);
    expect(await offered(betaKey.licenseKey)).toEqual(['1.1.0-beta.1', packageOf(beta.id, betaKey.licenseKey)]);
    expect(await offered(betaKey.licenseKey, 'stable')).toEqual(['1.0.0', packageOf(stable.id, betaKey.licenseKey)]);
    expect(await offered(betaKey.licenseKey, 'alpha')).toEqual(['1.1.0-beta.1', packageOf(beta.id, betaKey.licenseKey)]);
    expect(await offered(alphaKey.licenseKey)).toEqual(['1.2.0-alpha.1', packageOf(alpha.id, alphaKey.licenseKey)]);
    // Without a valid license: stable only, whatever the site asks.
    expect(await offered('NOPE-AAAA-BBBB-CCCC-DDDD', 'alpha')).toEqual(['1.0.0', undefined]);
    await tenant.put(`/api/licenses/${alphaKey.id}`, { status: 'suspended' });
    expect(await offered(alphaKey.licenseKey, 'alpha')).toEqual(['1.0.0', undefined]);
    // A license moved to another channel is answered so at once.
    expect((await tenant.put(`/api/licenses/${stableKey.id}`, { channel: 'alpha' })).body.channel).toBe('alpha');
    expect(await offered(stableKey.licenseKey)).toEqual(['1.2.0-alpha.1', packageOf(alpha.id, stableKey.licenseKey)]);

    const bad = await updateCheck({ slug: product.slug, license_key: betaKey.licenseKey, version: '1.0', channel: 'nightly' });
    expect([bad.status, bad.body.error]).toEqual([400, 'channel must be one of stable, beta, alpha']);
    for (const [path, body] of [
      [`/api/licenses`, { productId: product.id, customerEmail: 'b@example.com', channel: 'nightly' }],
      [`/api/products/${product.id}/plans`, { name: 'X', billingCycle: 'yearly', price: 1, currency: 'usd', channel: 'rc' }],
    ] as const) {
      const refused = await tenant.post(path, body);
      expect(refused.status).toBe(400);
      expect(refused.text).toContain('channel');
    }
  });

  it("skips releases whose PHP or WordPress requirement the site's versions do not meet", async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant, { requiresPhp: '7.4' });
    const key = await newLicense(tenant, product.id);
    await newRelease(tenant, product.id, { version: '1.0.0' });
    await newRelease(tenant, product.id, { version: '2.0.0', requiresPhp: '8.1', requires: '6.5' });
    const offered = async (site: Record<string, string>) => {
      const res = await updateCheck({ slug: product.slug, license_key: key.licenseKey, version: '1.0.0', ...site });
      expect(res.status, res.text).toBe(200);
      return [res.body.new_version, res.body.requires_php, res.body.requires];
    };
    expect(await offered({})).toEqual(['2.0.0', '8.1', '6.5']);
    expect(await offered({ php: '8.0.30' })).toEqual(['1.0.0', '7.4', null]);
    expect(await offered({ php: '8.2.12', wp: '6.4.2' })).toEqual(['1.0.0', '7.4', null]);
    expect(await offered({ php: '8.2.12', wp: '6.5' })).toEqual(['2.0.0', '8.1', '6.5']);
    expect(await offered({ wp: '6.5-RC1' })).toEqual(['1.0.0', '7.4', null]);
    // The product's requirement counts for a release that sets none.
    expect(await offered({ php: '7.2' })).toEqual([null, '7.4', null]);
    for (const [field, value] of [['php', 'eight'], ['wp', '6.x; DROP']]) {
      const res = await updateCheck({ slug: product.slug, license_key: key.licenseKey, version: '1', [field]: value });
      expect([res.status, res.body.error]).toEqual([400, `${field} must be a version such as 8.2.1`]);
    }
  });

  describe('rollouts', () => {
    let receiver: Receiver;
    beforeAll(async () => {
      receiver = await startReceiver();
    });
    afterAll(() => receiver.close());

    it("offers a staged release by the site's bucket, a changed rollout at once, and tells webhooks", async () => {
      const tenant = await newTenant();
      const { body: hook } = await tenant.post('/api/webhooks', { name: 'Releases', url: receiver.url, events: ['release.published', 'release.updated'] });
      expect(hook.id).toBeDefined();
      const product = await newProduct(tenant);
      const key = await newLicense(tenant, product.id);
      const previous = await newRelease(tenant, product.id, { version: '1.0.0' });
      const staged = await newRelease(tenant, product.id, { version: '2.0.0', rolloutPercent: 30 });
      expect(staged).toMatchObject({ channel: 'stable', rolloutPercent: 30 });
      const { inside, outside } = domainsAround(staged.id, 30);
      const offeredTo = async (domain?: string) =>
        (await updateCheck({ slug: product.slug, license_key: key.licenseKey, version: '1.0.0', ...(domain && { domain: `https://www.${domain}/` }) })).body
          .new_version;
      expect(await offeredTo(inside)).toBe('2.0.0');
      expect(await offeredTo(outside)).toBe('1.0.0');
      // Without a domain, the license key draws the bucket.
      expect(await offeredTo()).toBe(rolloutBucket(staged.id, key.licenseKey) < 30 ? '2.0.0' : '1.0.0');
      // Rollback and download are not narrowed by the rollout.
      expect((await versions({ slug: product.slug, license_key: key.licenseKey })).body.versions.map((v: any) => v.version)).toEqual(['2.0.0', '1.0.0']);

      const widened = await tenant.put(`/api/products/${product.id}/releases/${staged.id}`, { rolloutPercent: 100 });
      expect([widened.status, widened.body.rolloutPercent]).toEqual([200, 100]);
      expect(await offeredTo(outside)).toBe('2.0.0');
      expect((await tenant.put(`/api/products/${product.id}/releases/${staged.id}`, { rolloutPercent: 0 })).status).toBe(400);
      expect((await tenant.put(`/api/products/${product.id}/releases/${staged.id}`, { channel: 'gamma' })).status).toBe(400);
      // A change that leaves who gets it alone emits nothing.
      expect((await tenant.put(`/api/products/${product.id}/releases/${staged.id}`, { releaseNotes: 'Faster' })).status).toBe(200);
      await tenant.put(`/api/products/${product.id}/releases/${staged.id}`, { channel: 'beta' });

      const requests = await receiver.waitFor(4);
      const events = requests.filter((r) => r.json?.data?.productId === product.id).map((r) => [r.json.type, r.json.data.id, r.json.data.channel, r.json.data.rolloutPercent]);
      expect(events.sort()).toEqual(
        [
          ['release.published', previous.id, 'stable', 100],
          ['release.published', staged.id, 'stable', 30],
          ['release.updated', staged.id, 'stable', 100],
          ['release.updated', staged.id, 'beta', 100],
        ].sort(),
      );
    });
  });

  it("lists the versions a license may install, and downloads any release on its channels but no other channel's", async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant, { requires: '6.0' });
    const stableKey = await newLicense(tenant, product.id);
    const betaKey = await newLicense(tenant, product.id, { channel: 'beta' });
    const first = await newRelease(tenant, product.id, { version: '1.0.0', tested: '6.4' });
    const second = await newRelease(tenant, product.id, { version: '1.1.0', requiresPhp: '8.0' });
    const beta = await newRelease(tenant, product.id, { version: '1.2.0-beta.1', channel: 'beta' });
    await newRelease(tenant, product.id, { version: '1.3.0', status: 'draft' });

    const listed = await versions({ slug: product.slug, license_key: stableKey.licenseKey });
    expect(listed.status).toBe(200);
    expect(listed.headers.get('signature')).toBeTruthy();
    expect(listed.body).toEqual({
      versions: [
        { version: '1.1.0', channel: 'stable', releasedAt: expect.any(String), requires: '6.0', requiresPhp: '8.0', tested: null, package: packageOf(second.id, stableKey.licenseKey) },
        { version: '1.0.0', channel: 'stable', releasedAt: expect.any(String), requires: '6.0', requiresPhp: null, tested: '6.4', package: packageOf(first.id, stableKey.licenseKey) },
      ],
    });
    const betaList = await versions({ slug: product.slug, license_key: betaKey.licenseKey });
    expect(betaList.body.versions.map((v: any) => [v.version, v.channel])).toEqual([['1.2.0-beta.1', 'beta'], ['1.1.0', 'stable'], ['1.0.0', 'stable']]);

    // Rollback: an older release downloads; another channel's release does not.
    expect((await download(first.id, stableKey.licenseKey)).status).toBe(302);
    const refused = await download(beta.id, stableKey.licenseKey);
    expect([refused.status, refused.body]).toEqual([403, { error: 'Release not available to this license' }]);
    expect((await download(beta.id, betaKey.licenseKey)).status).toBe(302);

    const other = await newProduct(tenant);
    const otherKey = await newLicense(tenant, other.id);
    for (const [licenseKey, error] of [
      ['NOPE-AAAA-BBBB-CCCC-DDDD', 'License key not found'],
      [otherKey.licenseKey, 'License does not belong to this product'],
    ]) {
      const res = await versions({ slug: product.slug, license_key: licenseKey! });
      expect([res.status, res.body]).toEqual([403, { error }]);
    }
    await tenant.post(`/api/licenses/${betaKey.id}/revoke`);
    expect((await versions({ slug: product.slug, license_key: betaKey.licenseKey })).body).toEqual({ error: 'License has been revoked' });
    expect((await versions({ slug: 'no-such-product-slug', license_key: stableKey.licenseKey })).status).toBe(404);
    expect((await versions({ slug: product.slug })).body.error).toBe('license_key is required');
  });

  it('an expired license: the renew notice and link, and the releases published before expiry where the product keeps them', async () => {
    const tenant = await newTenant();
    const { product, plan } = await productWithPlan(tenant);
    const license = await newLicense(tenant, product.id, { planId: plan.id });
    const before = await newRelease(tenant, product.id, { version: '1.0.0' });
    const expired = await tenant.put(`/api/licenses/${license.id}`, { expiresAt: new Date().toISOString() });
    expect(expired.status).toBe(200);
    await eventually(async () => Date.now(), (now) => now > Date.parse(expired.body.expiresAt));
    const after = await newRelease(tenant, product.id, { version: '2.0.0' });
    const renewalUrl = `${inject('baseUrl')}/public/v1/checkout/plan_${plan.id.slice(4)}?public_key=${product.public_key}`;
    const check = async () => (await updateCheck({ slug: product.slug, license_key: license.licenseKey, version: '1.0.0' })).body;

    // `none`, the default: nothing to download, but the site is told what renewing brings.
    expect(await check()).toMatchObject({ new_version: '2.0.0', upgrade_notice: 'Renew your license to update to 2.0.0', renewal_url: renewalUrl });
    expect((await check()).package).toBeUndefined();
    expect((await download(before.id, license.licenseKey)).body).toEqual({ error: 'License has expired' });
    expect((await versions({ slug: product.slug, license_key: license.licenseKey })).body).toEqual({ error: 'License has expired' });
    expect((await plugin().get(`/public/v1/plans?public_key=${product.public_key}`, { origin: null })).body.plans[0].checkoutUrl).toBe(renewalUrl);

    expect((await tenant.put(`/api/products/${product.id}`, { updatesAfterExpiry: 'releasedBeforeExpiry' })).body.updatesAfterExpiry).toBe('releasedBeforeExpiry');
    expect(await check()).toMatchObject({
      new_version: '1.0.0',
      package: packageOf(before.id, license.licenseKey),
      upgrade_notice: 'Renew your license to update to 2.0.0',
      renewal_url: renewalUrl,
    });
    expect((await versions({ slug: product.slug, license_key: license.licenseKey })).body.versions.map((v: any) => v.version)).toEqual(['1.0.0']);
    expect((await download(before.id, license.licenseKey)).status).toBe(302);
    expect((await download(after.id, license.licenseKey)).body).toEqual({ error: 'License has expired' });

    // Renewed: no notice. Suspended or revoked: nothing kept, no notice.
    expect((await tenant.put(`/api/licenses/${license.id}`, { expiresAt: null })).body.status).toBe('active');
    const renewed = await check();
    expect([renewed.new_version, renewed.upgrade_notice, renewed.renewal_url]).toEqual(['2.0.0', undefined, undefined]);
    await tenant.put(`/api/licenses/${license.id}`, { expiresAt: expired.body.expiresAt, status: 'suspended' });
    const suspended = await check();
    expect([suspended.new_version, suspended.package, suspended.upgrade_notice]).toEqual(['2.0.0', undefined, undefined]);
    expect((await download(before.id, license.licenseKey)).body).toEqual({ error: 'License is suspended' });
    expect((await tenant.put(`/api/products/${product.id}`, { updatesAfterExpiry: 'always' })).status).toBe(400);
  });
});

describe("a release's readme.txt", () => {
  const readme = [
    '=== Widget Pro ===',
    'Requires at least: 6.1',
    'Tested up to: 6.6',
    'Requires PHP: 8.0',
    '',
    'Widgets, done right.',
    '',
    '== Description ==',
    'Makes **widgets**. <script>alert(1)</script>',
    '== Installation ==',
    '1. Upload.',
    '== Frequently Asked Questions ==',
    '= Does it work? =',
    'Yes.',
    '== Screenshots ==',
    '1. The settings.',
    '== Changelog ==',
    '= 2.0.0 =',
    '* Rewritten.',
    '== Upgrade Notice ==',
    '= 2.0.0 =',
    'Back up first.',
  ].join('\n');

  it('fills the metadata and the update check from the ZIP, whether uploaded through the API or by upload URL', async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant, { description: 'From the product' });
    const key = await newLicense(tenant, product.id);
    const zip = await pluginZip({ 'widget-pro/widget-pro.php': '<?php', 'widget-pro/readme.txt': readme });

    // Multipart upload; the body's own `tested` wins over the readme's.
    const uploaded = await newRelease(tenant, product.id, { version: '2.0.0', tested: '6.7' }, zip);
    expect(uploaded).toMatchObject({ requires: '6.1', tested: '6.7', requiresPhp: '8.0' });
    const res = await updateCheck({ slug: product.slug, license_key: key.licenseKey, version: '1.0.0' });
    expect(res.body).toMatchObject({
      new_version: '2.0.0',
      requires: '6.1',
      tested: '6.7',
      requires_php: '8.0',
      upgrade_notice: 'Back up first.',
      sections: {
        description: '<p>Makes <strong>widgets</strong>. </p>',
        installation: '<ol>\n<li>Upload.</li>\n</ol>',
        faq: '<h4>Does it work?</h4>\n<p>Yes.</p>',
        screenshots: '<ol>\n<li>The settings.</li>\n</ol>',
        changelog: '<h4>2.0.0</h4>\n<ul>\n<li>Rewritten.</li>\n</ul>',
      },
    });

    // By upload URL: the service reads the object where it was put.
    const grant = (await tenant.post(`/api/products/${product.id}/releases/upload-url`, { fileName: 'widget-pro-2.1.0.zip', fileSize: zip.length })).body;
    const put = await fetch(grant.uploadUrl, { method: 'PUT', body: new Uint8Array(zip) });
    expect(put.ok).toBe(true);
    const direct = await tenant.post(`/api/products/${product.id}/releases`, { version: '2.1.0', filePath: grant.filePath });
    expect(direct.status, direct.text).toBe(201);
    expect(direct.body).toMatchObject({ requires: '6.1', tested: '6.6', requiresPhp: '8.0' });
    const next = (await updateCheck({ slug: product.slug, license_key: key.licenseKey, version: '2.0.0' })).body;
    expect(next.new_version).toBe('2.1.0');
    expect(next.sections.faq).toBe('<h4>Does it work?</h4>\n<p>Yes.</p>');
    // Its readme has no notice for 2.1.0.
    expect(next.upgrade_notice).toBeUndefined();

    // A new file without a readme takes the readme's sections away (the metadata stays, as set values do).
    const plain = await pluginZip({ 'widget-pro/widget-pro.php': '<?php' });
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(plain)], { type: 'application/zip' }), 'plain.zip');
    const stored = (await tenant.request('POST', `/api/products/${product.id}/releases/upload`, { rawBody: form })).body;
    expect((await tenant.put(`/api/products/${product.id}/releases/${direct.body.id}`, { filePath: stored.filePath })).status).toBe(200);
    const replaced = (await updateCheck({ slug: product.slug, license_key: key.licenseKey, version: '2.0.0' })).body;
    expect(replaced.sections).toEqual({ description: '<p>From the product</p>', changelog: expect.stringContaining('<h4>2.1.0</h4>') });
  });
});

describe('portal downloads', () => {
  it("offer the latest release on the channels the customer's licenses receive", async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant);
    const email = `buyer-${Date.now()}@example.com`;
    await newLicense(tenant, product.id, { customerEmail: email });
    await newRelease(tenant, product.id, { version: '1.0.0' });
    await newRelease(tenant, product.id, { version: '1.1.0-beta.1', channel: 'beta' });
    const portal = new Client();
    portal.bearer = (await tenant.post('/api/api-keys', { name: 'Portal server' })).body.key;
    const latest = async () => (await portal.get(`/v1/portal/downloads?email=${encodeURIComponent(email)}`, { origin: null })).body.data.map((d: any) => d.version);
    expect(await latest()).toEqual(['1.0.0']);
    // A second license of the product, on beta: the customer may have the beta.
    await newLicense(tenant, product.id, { customerEmail: email, channel: 'beta' });
    expect(await latest()).toEqual(['1.1.0-beta.1']);
  });
});
