import { describe, expect, it } from 'vitest';
import { versionKey } from '../../../shared/catalog/releases/versions.js';
import { newTenant } from '../../support/client.js';
import { pluginZip } from '../../support/plugin-zip.js';
import { localData } from '../../support/table.js';

/**
 * Release versions (DECISIONS §22): read from the ZIP when the request leaves `version` out, and held once per product
 * among published releases (`1.2` = `1.2.0`), by a version-claim item written in the release's own transaction.
 */
type Tenant = Awaited<ReturnType<typeof newTenant>>;

async function productOf(tenant: Tenant): Promise<string> {
  const res = await tenant.post('/api/products', { name: 'Versioned', productType: 'plugin' });
  expect(res.status).toBe(201);
  return res.body.id;
}

async function uploaded(tenant: Tenant, productId: string, files: Record<string, string>): Promise<string> {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(await pluginZip(files))], { type: 'application/zip' }), 'release.zip');
  const res = await tenant.request('POST', `/api/products/${productId}/releases/upload`, { rawBody: form });
  expect(res.status).toBe(201);
  return res.body.filePath;
}

const pluginHeader = (version: string) => `<?php\n/**\n * Plugin Name: Versioned\n * Version: ${version}\n */\n`;

describe('the version of a release, read from its ZIP', () => {
  it("takes the plugin header's Version, else a theme's style.css Version, else readme.txt's Stable tag", async () => {
    const tenant = await newTenant();
    const productId = await productOf(tenant);
    const releases = `/api/products/${productId}/releases`;
    const plugin = await uploaded(tenant, productId, { 'versioned/versioned.php': pluginHeader('1.4.2'), 'versioned/readme.txt': '=== V ===\nStable tag: 1.0\nTested up to: 6.7\n' });
    const fromPlugin = await tenant.post(releases, { filePath: plugin });
    expect(fromPlugin.status).toBe(201);
    expect(fromPlugin.body).toMatchObject({ version: '1.4.2', tested: '6.7' });

    const theme = await uploaded(tenant, productId, { 'my-theme/style.css': '/*\nTheme Name: Mine\nVersion: 2.0.1\n*/', 'my-theme/readme.txt': 'Stable tag: 1.0' });
    expect((await tenant.post(releases, { filePath: theme })).body.version).toBe('2.0.1');

    const readme = await uploaded(tenant, productId, { 'readme.txt': '=== V ===\nStable tag: 3.0.0-beta.1\n', 'lib.php': '<?php // no header' });
    expect((await tenant.post(releases, { filePath: readme })).body.version).toBe('3.0.0-beta.1');

    // A version in the request wins over the ZIP's.
    expect((await tenant.post(releases, { filePath: plugin, version: '1.4.3' })).body.version).toBe('1.4.3');
    expect((await tenant.get(`/api/products/${productId}`)).body.latestVersion).toBe('3.0.0-beta.1');
  });

  it('refuses a ZIP that names no version, or one that is not a version, when the request gives none', async () => {
    const tenant = await newTenant();
    const productId = await productOf(tenant);
    const releases = `/api/products/${productId}/releases`;
    const none = await uploaded(tenant, productId, { 'readme.txt': '=== V ===\nStable tag: trunk\n', 'p/p.php': '<?php' });
    const res = await tenant.post(releases, { filePath: none });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^version is required: the ZIP names none/);
    const bad = await uploaded(tenant, productId, { 'p/p.php': pluginHeader('1.0 final') });
    expect((await tenant.post(releases, { filePath: bad })).body.error).toBe(
      'version: the ZIP names "1.0 final", which must be 1-50 letters, digits, dots, hyphens, underscores or plus signs',
    );
    expect((await tenant.get(releases)).body.items).toEqual([]);
  });
});

describe('one published release per version', () => {
  it('refuses a second published release of an equal version with 409, and a publication that would make one', async () => {
    const tenant = await newTenant();
    const productId = await productOf(tenant);
    const filePath = await uploaded(tenant, productId, { 'p/p.php': pluginHeader('1.2') });
    const releases = `/api/products/${productId}/releases`;
    const first = await tenant.post(releases, { filePath });
    expect([first.status, first.body.version]).toEqual([201, '1.2']);
    for (const version of ['1.2', '1.2.0', 'v1.2']) {
      const again = await tenant.post(releases, { filePath, version });
      expect([again.status, again.body]).toEqual([409, { error: `Release ${version} already exists` }]);
    }
    // Drafts may share the version, until one of them is published.
    const draftA = await tenant.post(releases, { filePath, version: '1.2.0', status: 'draft' });
    const draftB = await tenant.post(releases, { filePath, version: '1.2.0', status: 'draft' });
    expect([draftA.status, draftB.status]).toEqual([201, 201]);
    const publishA = await tenant.put(`${releases}/${draftA.body.id}`, { status: 'published' });
    expect([publishA.status, publishA.body]).toEqual([409, { error: 'Release 1.2.0 already exists' }]);
    // Renumbering a published release onto a taken version is refused too; onto a free one, it frees its old one.
    const other = (await tenant.post(releases, { filePath, version: '1.3' })).body;
    expect((await tenant.put(`${releases}/${other.id}`, { version: '1.2.0.0' })).status).toBe(409);
    expect((await tenant.put(`${releases}/${first.body.id}`, { version: '1.2.1' })).status).toBe(200);
    expect((await tenant.put(`${releases}/${draftA.body.id}`, { status: 'published' })).status).toBe(200);
    expect((await tenant.put(`${releases}/${draftB.body.id}`, { status: 'published' })).status).toBe(409);
    // Unpublishing or deleting lets the version go.
    expect((await tenant.put(`${releases}/${draftA.body.id}`, { status: 'archived' })).status).toBe(200);
    expect((await tenant.put(`${releases}/${draftB.body.id}`, { status: 'published' })).status).toBe(200);
    expect((await tenant.delete(`${releases}/${draftB.body.id}`)).status).toBe(204);
    expect((await tenant.post(releases, { filePath, version: '1.2' })).status).toBe(201);
    const published = (await tenant.get(releases)).body.items.filter((r: { status: string }) => r.status === 'published');
    expect(published.map((r: { version: string }) => versionKey(r.version)).sort()).toEqual(['1.2', '1.2.1', '1.3']);
  });

  it('lets exactly one of concurrent publications of a version through', async () => {
    const tenant = await newTenant();
    const productId = await productOf(tenant);
    const filePath = await uploaded(tenant, productId, { 'p/p.php': pluginHeader('5.0') });
    const results = await Promise.all(['5.0', '5.0.0', '5', '5.0', '5.0.0.0'].map((version) => tenant.post(`/api/products/${productId}/releases`, { filePath, version })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
  });

  it('counts releases published before the rule: their versions are claimed before the first publication under it', async () => {
    const tenant = await newTenant();
    const productId = await productOf(tenant);
    const filePath = await uploaded(tenant, productId, { 'p/p.php': pluginHeader('1.0') });
    const releases = `/api/products/${productId}/releases`;
    const data = localData();
    // Two releases of 1.0 published before claims existed: as the API makes them, without their claims and the mark.
    const legacy = [];
    for (const version of ['1.0', '1.0.0']) {
      const release = (await tenant.post(releases, { filePath, version })).body;
      await data.entities.versionClaim.delete({ productId, versionKey: '1' }).go();
      legacy.push(release);
    }
    await data.entities.product.patch({ productId }).remove(['versionsClaimed']).go();

    expect(await tenant.post(releases, { filePath, version: '1' })).toMatchObject({ status: 409, body: { error: 'Release 1 already exists' } });
    expect((await data.entities.product.get({ productId }).go()).data?.versionsClaimed).toBe(true);
    // Whichever holds the claim, unpublishing it hands the version to the other, still published.
    for (const release of legacy) {
      expect((await tenant.put(`${releases}/${release.id}`, { status: 'draft' })).status).toBe(200);
      const again = await tenant.post(releases, { filePath, version: '1.0' });
      expect(again.status).toBe(release === legacy[0] ? 409 : 201);
    }
  });
});

describe('platform versions of products and releases', () => {
  it('takes tested, requires and requiresPhp as version numbers only, with a sentence for anything else', async () => {
    const tenant = await newTenant();
    const bad = await tenant.post('/api/products', { name: 'P', productType: 'plugin', tested: 'latest' });
    expect([bad.status, bad.body.error]).toEqual([400, 'tested: must be a version number such as 6.7 or 8.2.1']);
    const productId = await productOf(tenant);
    expect((await tenant.put(`/api/products/${productId}`, { requiresPhp: 'seven' })).body.error).toBe('requiresPhp: must be a version number such as 6.7 or 8.2.1');
    expect((await tenant.put(`/api/products/${productId}`, { tested: '6.7', requires: '6.2', requiresPhp: '8.1' })).body).toMatchObject({ tested: '6.7', requires: '6.2', requiresPhp: '8.1' });
    expect((await tenant.put(`/api/products/${productId}`, { tested: null })).body.tested).toBeNull();
    const filePath = await uploaded(tenant, productId, { 'p/p.php': pluginHeader('1.0') });
    const release = await tenant.post(`/api/products/${productId}/releases`, { filePath, requires: '6.x' });
    expect([release.status, release.body.error]).toEqual([400, 'requires: must be a version number such as 6.7 or 8.2.1']);
  });
});
