import { describe, expect, it } from 'vitest';
import { newTenant } from '../../support/client.js';
import { finishedExport } from '../../support/exports.js';
import { importFile } from '../../support/imports.js';
import { newLicense, newProduct, newRelease, plugin, type Product, type Tenant } from '../../support/licensing-fixtures.js';

/**
 * DECISIONS §16: an account exported as `jsonl` and imported into a fresh account keeps every key working the same.
 * Each key of the old account is asked validate (with and without a site) and the update check in both accounts,
 * and the answers must be the same but for what necessarily differs between two products (see `asInA`).
 */

/** What both accounts' products are made with (an import does not create products, docs/import.md). */
const PRODUCT_FIELDS = {
  description: 'SEO for WordPress',
  homepage: 'https://seo.example.com',
  tested: '6.5',
  requires: '6.0',
  requiresPhp: '7.4',
};
const RELEASES = [
  { version: '1.0.0', releaseNotes: 'First release' },
  { version: '1.1.0', releaseNotes: 'Faster sitemaps' },
  // Offered to beta licenses only: a license's channel must survive the move.
  { version: '1.2.0', releaseNotes: 'New schema editor', channel: 'beta' },
];

const MACHINE = 'ws-7f3a-01';

/** What a license holds its seats with, and whether it floats: the same before an export as after its import. */
async function seatsOf(tenant: Tenant, licenseKey: string) {
  const found = await tenant.get(`/api/licenses?${new URLSearchParams({ search: licenseKey })}`);
  const { body } = await tenant.get(`/api/licenses/${found.body.items[0].id}`);
  const activations = (body.activations as Record<string, unknown>[])
    .filter(({ status }) => status === 'active')
    .map(({ domain, machine, name, platform, environment }) => ({ domain, machine, name, platform, environment }))
    // An import activates a license's sites at one time, so their order in the license is not the old account's.
    .sort((x, y) => String(x.domain ?? x.machine).localeCompare(String(y.domain ?? y.machine)));
  const { seats, activatedCount, stagingCount, floating, leaseSeconds } = body;
  return { seats, activatedCount, stagingCount, floating, leaseSeconds, activations };
}

async function productWithReleases(tenant: Tenant, fields: Record<string, unknown>) {
  const product = await newProduct(tenant, { ...PRODUCT_FIELDS, ...fields });
  const releases = new Map<string, string>();
  for (const release of RELEASES) releases.set(release.version, (await newRelease(tenant, product.id, release)).id);
  return { product, releases };
}

/** A site or a device (DECISIONS §18) validate may name. */
type Holder = { domain: string } | { machine: string };
const validate = (licenseKey: string, holder?: Holder) => plugin().post('/v1/licenses/validate', { license_key: licenseKey, ...holder }, { origin: null });
const updateCheck = (slug: string, licenseKey: string) =>
  plugin().get(`/v1/wp/update-check?${new URLSearchParams({ slug, license_key: licenseKey, version: '1.0.0' })}`, { origin: null });

describe('export → import into a fresh account', () => {
  it('every key answers validate and the update check as it did', async () => {
    const a = (await newTenant()) as Tenant;
    const { product: productA, releases: releasesA } = await productWithReleases(a, {});
    const planA = await a.post(`/api/products/${productA.id}/plans`, { name: 'Agency', slug: 'agency', billingCycle: 'yearly', price: 199, currency: 'USD', siteLimit: 5 });
    expect(planA.status, planA.text).toBe(201);

    const inAYear = new Date(Date.now() + 365 * 86_400_000).toISOString().replace(/\.\d+Z$/, '.000Z');
    const licenses = {
      withSites: await newLicense(a, productA.id, { customerEmail: 'ann@example.com', customerName: 'Ann Lee', seats: 3 }),
      withPlanAndExpiry: await newLicense(a, productA.id, { customerEmail: 'bob@example.com', planId: planA.body.id, expiresAt: inAYear }),
      expired: await newLicense(a, productA.id, { customerEmail: 'cy@example.com', expiresAt: '2024-01-31T00:00:00.000Z' }),
      revoked: await newLicense(a, productA.id, { customerEmail: 'ann@example.com' }),
      suspended: await newLicense(a, productA.id, { customerEmail: 'dee@example.com' }),
      beta: await newLicense(a, productA.id, { customerEmail: 'eve@example.com', channel: 'beta' }),
      withMachine: await newLicense(a, productA.id, { customerEmail: 'fay@example.com', seats: 2 }),
      floating: await newLicense(a, productA.id, { customerEmail: 'gus@example.com', seats: 3, floating: true, leaseSeconds: 120 }),
    };
    // A production site and a staging one (no seat), and a site that left (not carried over, frees its seat).
    for (const domain of ['ann-shop.com', 'staging.ann-shop.com', 'old.ann-shop.com']) {
      const res = await plugin().post('/v1/licenses/activate', { license_key: licenses.withSites.licenseKey, domain }, { origin: null });
      expect(res.status, res.text).toBe(200);
    }
    expect((await plugin().post('/v1/licenses/deactivate', { license_key: licenses.withSites.licenseKey, domain: 'old.ann-shop.com' }, { origin: null })).status).toBe(200);
    // A device, with what its client reports of it.
    const device = { license_key: licenses.withMachine.licenseKey, machine: MACHINE, name: 'Design workstation', platform: 'win32-x64' };
    expect((await plugin().post('/v1/licenses/activate', device, { origin: null })).status).toBe(200);
    expect((await a.post(`/api/licenses/${licenses.revoked.id}/revoke`)).status).toBe(200);
    expect((await a.put(`/api/licenses/${licenses.suspended.id}`, { status: 'suspended' })).status).toBe(200);

    const file = (await finishedExport(a, 'jsonl')).bytes.toString('utf8');

    // A's answers, before A lets go of the keys: a key exists once across the service (an import skips a key that
    // any account holds), so moving between two accounts of one service means deleting the old account's licenses.
    const holders: (Holder | undefined)[] = [undefined, { domain: 'ann-shop.com' }, { domain: 'staging.ann-shop.com' }, { machine: MACHINE }];
    const answersOf = async (product: Product) => {
      const answers = new Map<string, { status: number; body: unknown }>();
      for (const [name, { licenseKey }] of Object.entries(licenses)) {
        for (const holder of holders) {
          const { status, body } = await validate(licenseKey, holder);
          answers.set(`${name} validate ${holder ? JSON.stringify(holder) : 'without a site'}`, { status, body });
        }
        const { status, body } = await updateCheck(product.slug, licenseKey);
        answers.set(`${name} update check`, { status, body });
      }
      return answers;
    };
    const answersA = await answersOf(productA);
    const seatsA = await Promise.all(Object.values(licenses).map(({ licenseKey }) => seatsOf(a, licenseKey)));
    for (const { id } of Object.values(licenses)) expect((await a.delete(`/api/licenses/${id}`)).status).toBe(204);

    // B makes its product (same name and fields; a slug of its own, since slugs are unique across the service),
    // the plan the licenses name and the same releases, then imports the file.
    const b = (await newTenant()) as Tenant;
    const { product: productB, releases: releasesB } = await productWithReleases(b, { name: productA.name, slug: `${productA.slug}-moved` });
    expect((await b.post(`/api/products/${productB.id}/plans`, { name: 'Agency', slug: 'agency', billingCycle: 'yearly', price: 199, currency: 'USD', siteLimit: 5 })).status).toBe(201);
    const job = await importFile(b, { productId: productB.id, format: 'jsonl' }, file, 'application/x-ndjson');
    expect(job).toMatchObject({ status: 'done', errors: [], errorCount: 0, counts: { licenses: 8, skipped: 0 } });
    // Each license holds its seats as it did (sites, staging sites, devices with their name and platform), and floats
    // as it did.
    expect(await Promise.all(Object.values(licenses).map(({ licenseKey }) => seatsOf(b, licenseKey)))).toEqual(seatsA);
    expect(seatsA.find(({ floating }) => floating)).toMatchObject({ seats: 3, leaseSeconds: 120 });
    expect(seatsA.flatMap(({ activations }) => activations)).toContainEqual({ domain: null, machine: MACHINE, name: 'Design workstation', platform: 'win32-x64', environment: 'production' });

    /**
     * B's answer with B's own identifiers replaced by A's. These differ necessarily between two products:
     * - the product's `id` (a new product) and `slug` (unique across the service, so B's product needs its own);
     * - release ids, and so the update check's `package` URL that names one (an export carries no release files:
     *   releases are made anew in B);
     * - the signature headers (each product signs with its own key): only statuses and bodies are compared.
     */
    const asInA = (body: unknown) => {
      let text = JSON.stringify(body).replaceAll(productB.id, productA.id).replaceAll(`"${productB.slug}"`, `"${productA.slug}"`);
      for (const [version, id] of releasesB) text = text.replaceAll(id, releasesA.get(version)!);
      return JSON.parse(text);
    };
    const answersB = await answersOf(productB);
    for (const [question, inA] of answersA) {
      const inB = answersB.get(question)!;
      expect([question, inB.status, asInA(inB.body)]).toEqual([question, inA.status, inA.body]);
    }

    // The comparison covers each kind of answer (not only refusals, nor only one release).
    const offered = Object.keys(licenses).map((name) => {
      const { body } = answersA.get(`${name} update check`)! as { body: { new_version: string; package?: string } };
      return `${name}: ${body.new_version} ${body.package ? 'package' : 'no package'}`;
    });
    expect(offered).toEqual([
      'withSites: 1.1.0 package',
      'withPlanAndExpiry: 1.1.0 package',
      'expired: 1.1.0 no package',
      'revoked: 1.1.0 no package',
      'suspended: 1.1.0 no package',
      'beta: 1.2.0 package',
      'withMachine: 1.1.0 package',
      'floating: 1.1.0 package',
    ]);
    // So do the validates: a device's, and a floating license's for a machine without a lease (none is carried over).
    expect(answersA.get(`withMachine validate {"machine":"${MACHINE}"}`)!.body).toMatchObject({ valid: true });
    expect(answersA.get(`floating validate {"machine":"${MACHINE}"}`)!.body).toMatchObject({ valid: false });
  }, 120_000);
});
