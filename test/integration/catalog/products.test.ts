import { describe, expect, it } from 'vitest';
import { newTenant } from '../../support/client.js';

const widget = { name: 'Widget Pro', productType: 'plugin' };

describe('products', () => {
  it('creates a product with generated slug, public key, license prefix and defaults', async () => {
    const tenant = await newTenant();
    const res = await tenant.post('/api/products', { ...widget, description: 'A widget', color: '#3366ff', icon: '🧩' });
    expect(res.status).toBe(201);
    const slug = res.body.slug as string;
    expect(slug).toMatch(/^widget-pro(-\d+)?$/);
    expect(res.body).toMatchObject({
      id: expect.stringMatching(/^prd_[a-z2-7]{24}$/),
      name: 'Widget Pro',
      productType: 'plugin',
      status: 'active',
      description: 'A widget',
      color: '#3366ff',
      icon: '🧩',
      isPremium: false,
      licensePrefix: `${slug.toUpperCase().slice(0, 8)}-`,
      public_key: expect.stringMatching(/^pk_[a-z2-7]{32}$/),
      deletedAt: null,
      latestVersion: null,
      plansCount: 0,
    });
    expect((await tenant.get(`/api/products/${res.body.id}`)).body).toEqual(res.body);
  });

  it('keeps slugs unique across tenants: a requested taken slug is 409, a generated one gets a suffix', async () => {
    const first = await newTenant();
    const second = await newTenant();
    const slug = `unique-${Date.now()}`;
    expect((await first.post('/api/products', { ...widget, slug })).status).toBe(201);
    const taken = await second.post('/api/products', { ...widget, slug });
    expect(taken.status).toBe(409);
    expect((await second.get('/api/products')).body.pagination.total).toBe(0);
    const generated = await second.post('/api/products', { name: slug, productType: 'theme' });
    expect(generated.status).toBe(201);
    expect(generated.body.slug).toBe(`${slug}-2`);
  });

  it('gives concurrent creations of one slug exactly one winner', async () => {
    const tenant = await newTenant();
    const slug = `race-${Date.now()}`;
    const results = await Promise.all(Array.from({ length: 5 }, () => tenant.post('/api/products', { ...widget, slug })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
  });

  it('validates input: required fields, enums, types, unknown fields, URLs', async () => {
    const tenant = await newTenant();
    const cases: [unknown, RegExp][] = [
      [{ productType: 'plugin' }, /name is required/],
      [{ name: 'X' }, /productType is required/],
      [{ name: 'X', productType: 'toaster' }, /productType/],
      [{ name: 42, productType: 'plugin' }, /name/],
      [{ ...widget, isPremium: 'yes' }, /isPremium/],
      [{ ...widget, slug: 'Not A Slug' }, /slug/],
      [{ ...widget, logoUrl: 'ftp://x' }, /logoUrl/],
      [{ ...widget, color: 'blue' }, /color/],
      [{ ...widget, owner: 'me' }, /Unknown field: owner/],
      [{ ...widget, name: 'x'.repeat(201) }, /name/],
    ];
    for (const [body, message] of cases) {
      const res = await tenant.post('/api/products', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error).toMatch(message);
    }
    expect((await tenant.get('/api/products')).body.pagination.total).toBe(0);
  });

  it('updates partially: only the supplied fields change; null clears an optional field', async () => {
    const tenant = await newTenant();
    const { body: product } = await tenant.post('/api/products', { ...widget, description: 'Old', homepage: 'https://example.com' });
    const res = await tenant.put(`/api/products/${product.id}`, { description: 'New', status: 'draft', homepage: null });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: 'Widget Pro', description: 'New', status: 'draft', homepage: null, slug: product.slug });
    expect((await tenant.put(`/api/products/${product.id}`, { status: 'gone' })).status).toBe(400);
    expect((await tenant.get(`/api/products/${product.id}`)).body.description).toBe('New');
  });

  it('keeps staging patterns and their limit: null is the defaults, [] none, patterns checked and lower-cased', async () => {
    const tenant = await newTenant();
    const { body: product } = await tenant.post('/api/products', widget);
    expect(product).toMatchObject({ stagingPatterns: null, stagingActivationLimit: 3 });
    const set = await tenant.put(`/api/products/${product.id}`, { stagingPatterns: [' *.Preview.shop.com ', '{ip}', '*.preview.shop.com'], stagingActivationLimit: 5 });
    expect([set.status, set.body.stagingPatterns, set.body.stagingActivationLimit]).toEqual([200, ['*.preview.shop.com', '{ip}'], 5]);
    const none = await tenant.put(`/api/products/${product.id}`, { stagingPatterns: [] });
    expect([none.status, none.body.stagingPatterns, none.body.stagingActivationLimit]).toEqual([200, [], 5]);
    expect((await tenant.get(`/api/products/${product.id}`)).body.stagingPatterns).toEqual([]);
    const reset = await tenant.put(`/api/products/${product.id}`, { stagingPatterns: null, stagingActivationLimit: null });
    expect([reset.status, reset.body.stagingPatterns, reset.body.stagingActivationLimit]).toEqual([200, null, 3]);

    const cases: [unknown, string][] = [
      [{ stagingPatterns: ['*'] }, 'stagingPatterns.0: must name at least one label besides *'],
      [{ stagingPatterns: ['ok.test', 'https://staging.shop.com'] }, 'stagingPatterns.1: must be labels of a-z, 0-9, - or _ (or * for any labels, or for any characters within a label) joined by dots, or {ip}'],
      [{ stagingPatterns: 'staging.*' }, 'stagingPatterns: must be a list'],
      [{ stagingPatterns: Array.from({ length: 51 }, (_, i) => `s${i}.test`) }, 'stagingPatterns: must hold at most 50 patterns'],
      [{ stagingActivationLimit: 0 }, 'stagingActivationLimit: must be at least 1'],
      [{ stagingActivationLimit: 1.5 }, 'stagingActivationLimit: must be a whole number'],
    ];
    for (const [body, error] of cases) {
      const res = await tenant.put(`/api/products/${product.id}`, body);
      expect([res.status, res.body.error], JSON.stringify(body)).toEqual([400, error]);
    }
    const created = await tenant.post('/api/products', { ...widget, stagingPatterns: ['qa.shop.com'], stagingActivationLimit: 1 });
    expect([created.status, created.body.stagingPatterns, created.body.stagingActivationLimit]).toEqual([201, ['qa.shop.com'], 1]);
  });

  it('keeps return origins: https origins (http only for localhost), normalized, at most 20; [] lets checkout return anywhere', async () => {
    const tenant = await newTenant();
    const { body: product } = await tenant.post('/api/products', widget);
    expect(product.returnOrigins).toEqual([]);
    const origins = [' https://Shop.Example.com/ ', 'https://shop.example.com:443', 'https://app.example.com:8443', 'https://bücher.example', 'http://localhost:5173', 'http://127.0.0.1:8080', 'http://[::1]:3000'];
    const set = await tenant.put(`/api/products/${product.id}`, { returnOrigins: origins });
    const normalized = ['https://shop.example.com', 'https://app.example.com:8443', 'https://xn--bcher-kva.example', 'http://localhost:5173', 'http://127.0.0.1:8080', 'http://[::1]:3000'];
    expect([set.status, set.body.returnOrigins]).toEqual([200, normalized]);
    expect((await tenant.get(`/api/products/${product.id}`)).body.returnOrigins).toEqual(normalized);
    // Another field's update keeps them.
    expect((await tenant.put(`/api/products/${product.id}`, { description: 'x' })).body.returnOrigins).toEqual(normalized);

    const notAnOrigin = 'must be an https origin such as https://shop.example.com (http only for localhost)';
    const notAlone = 'must be an origin alone, without a path, query or fragment';
    const cases: [unknown, string][] = [
      [{ returnOrigins: ['http://shop.example.com'] }, `returnOrigins.0: ${notAnOrigin}`],
      [{ returnOrigins: ['https://shop.example.com', 'shop.example.com'] }, `returnOrigins.1: ${notAnOrigin}`],
      [{ returnOrigins: ['https://*.example.com'] }, `returnOrigins.0: ${notAnOrigin}`],
      [{ returnOrigins: ['https://user:pw@shop.example.com'] }, `returnOrigins.0: ${notAnOrigin}`],
      [{ returnOrigins: ['ftp://shop.example.com'] }, `returnOrigins.0: ${notAnOrigin}`],
      [{ returnOrigins: ['https://shop.example.com/thanks'] }, `returnOrigins.0: ${notAlone}`],
      [{ returnOrigins: ['https://shop.example.com/?a=1'] }, `returnOrigins.0: ${notAlone}`],
      [{ returnOrigins: ['https://shop.example.com#x'] }, `returnOrigins.0: ${notAlone}`],
      [{ returnOrigins: [`https://${'a'.repeat(300)}.example.com`] }, 'returnOrigins.0: must be at most 300 characters'],
      [{ returnOrigins: 'https://shop.example.com' }, 'returnOrigins: must be a list'],
      [{ returnOrigins: null }, 'returnOrigins: must be a list'],
      [{ returnOrigins: Array.from({ length: 21 }, (_, i) => `https://s${i}.example.com`) }, 'returnOrigins: must hold at most 20 origins'],
    ];
    for (const [body, error] of cases) {
      const res = await tenant.put(`/api/products/${product.id}`, body);
      expect([res.status, res.body.error], JSON.stringify(body)).toEqual([400, error]);
    }
    expect((await tenant.get(`/api/products/${product.id}`)).body.returnOrigins).toEqual(normalized);
    const cleared = await tenant.put(`/api/products/${product.id}`, { returnOrigins: [] });
    expect([cleared.status, cleared.body.returnOrigins]).toEqual([200, []]);
    const created = await tenant.post('/api/products', { ...widget, returnOrigins: ['https://shop.example.com'] });
    expect([created.status, created.body.returnOrigins]).toEqual([201, ['https://shop.example.com']]);
  });

  it('moves the slug on update and frees the old one; a taken slug is 409', async () => {
    const tenant = await newTenant();
    const a = (await tenant.post('/api/products', { ...widget, slug: `a-${Date.now()}` })).body;
    const b = (await tenant.post('/api/products', { ...widget, slug: `b-${Date.now()}` })).body;
    expect((await tenant.put(`/api/products/${b.id}`, { slug: a.slug })).status).toBe(409);
    const moved = await tenant.put(`/api/products/${a.id}`, { slug: `${a.slug}-moved` });
    expect(moved.status).toBe(200);
    expect(moved.body.slug).toBe(`${a.slug}-moved`);
    expect((await tenant.put(`/api/products/${b.id}`, { slug: a.slug })).body.slug).toBe(a.slug);
  });

  it('lists newest first with pagination, search by name or slug, and status filter', async () => {
    const tenant = await newTenant();
    const names = ['Alpha Tool', 'Beta Theme', 'Gamma App', 'Delta Lib', 'Alpha Two'];
    for (const [i, name] of names.entries()) {
      await tenant.post('/api/products', { name, productType: 'plugin', status: i % 2 ? 'draft' : 'active' });
    }
    const page1 = await tenant.get('/api/products?page=1&per_page=2');
    expect(page1.body.pagination).toEqual({ page: 1, perPage: 2, total: 5, totalPages: 3 });
    expect(page1.body.items.map((p: { name: string }) => p.name)).toEqual(['Alpha Two', 'Delta Lib']);
    const page3 = await tenant.get('/api/products?page=3&per_page=2');
    expect(page3.body.items.map((p: { name: string }) => p.name)).toEqual(['Alpha Tool']);
    expect((await tenant.get('/api/products')).body.pagination.perPage).toBe(20);
    expect((await tenant.get('/api/products?per_page=500')).body.pagination.perPage).toBe(100);

    const search = await tenant.get('/api/products?search=alpha');
    expect(search.body.items.map((p: { name: string }) => p.name).sort()).toEqual(['Alpha Tool', 'Alpha Two']);
    const bySlug = await tenant.get(`/api/products?search=${search.body.items[0].slug}`);
    expect(bySlug.body.items.some((p: { id: string }) => p.id === search.body.items[0].id)).toBe(true);
    const drafts = await tenant.get('/api/products?status=draft');
    expect(drafts.body.items.map((p: { name: string }) => p.name).sort()).toEqual(['Beta Theme', 'Delta Lib']);

    expect((await tenant.get('/api/products?page=0')).status).toBe(400);
    expect((await tenant.get('/api/products?page=abc')).status).toBe(400);
    expect((await tenant.get('/api/products?status=deleted')).status).toBe(400);
  });

  it('soft-deletes: gone from lists, still readable with deletedAt, no longer writable', async () => {
    const tenant = await newTenant();
    const { body: product } = await tenant.post('/api/products', widget);
    expect((await tenant.delete(`/api/products/${product.id}`)).status).toBe(204);
    expect((await tenant.get('/api/products')).body.items).toEqual([]);
    const read = await tenant.get(`/api/products/${product.id}`);
    expect(read.status).toBe(200);
    expect(read.body.deletedAt).toEqual(expect.any(String));
    expect((await tenant.put(`/api/products/${product.id}`, { name: 'Back' })).status).toBe(404);
    expect((await tenant.delete(`/api/products/${product.id}`)).status).toBe(404);
  });

  it('regenerates the public key', async () => {
    const tenant = await newTenant();
    const { body: product } = await tenant.post('/api/products', widget);
    const res = await tenant.post(`/api/products/${product.id}/regenerate-public-key`);
    expect(res.status).toBe(200);
    expect(res.body.public_key).toMatch(/^pk_/);
    expect(res.body.public_key).not.toBe(product.public_key);
  });

  it("isolates tenants on every product route: another tenant's id is 404", async () => {
    const owner = await newTenant();
    const other = await newTenant();
    const { status, body: product } = await owner.post('/api/products', widget);
    expect(status).toBe(201);
    const path = `/api/products/${product.id}`;
    expect((await other.get(path)).status).toBe(404);
    expect((await other.put(path, { name: 'Stolen' })).status).toBe(404);
    expect((await other.delete(path)).status).toBe(404);
    expect((await other.post(`${path}/regenerate-public-key`)).status).toBe(404);
    expect((await other.get('/api/products')).body.items).toEqual([]);
    expect((await owner.get(path)).body).toMatchObject({ name: 'Widget Pro', deletedAt: null, public_key: product.public_key });
  });

  it('answers unknown routes with 404 JSON', async () => {
    const tenant = await newTenant();
    const res = await tenant.get('/api/nothing-here');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Not found' });
  });
});
