import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { newTenant } from '../../support/client.js';
import { newLicense, newProduct, plugin, type Product, type Tenant } from '../../support/licensing-fixtures.js';
import { localData } from '../../support/table.js';

/**
 * Random interleavings of activate, deactivate, revoke and regenerate on one license, sent in concurrent
 * waves over HTTP, after which the license must hold its invariants: its active production activations are
 * exactly `activatedCount`, never more than its seats, its active staging sites exactly `stagingCount`, never
 * more than the staging limit (3), at most one per domain, each with the domain item that holds it; a revoked
 * license has none; and the tenant's active-activation total counts them all.
 */
const PRODUCTION = ['one.example.com', 'two.example.com', 'three.example.com', 'four.example.com'];
/** Staging sites by the default patterns: one more than a license may hold. */
const STAGING = ['one.test', 'two.test', 'three.test', 'four.test'];
const STAGING_LIMIT = 3;
const DOMAINS = [...PRODUCTION, ...STAGING];

type Operation = { kind: 'activate' | 'deactivate'; domain: string } | { kind: 'revoke' } | { kind: 'regenerate' };

const operation: fc.Arbitrary<Operation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('activate' as const), domain: fc.constantFrom(...DOMAINS) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('deactivate' as const), domain: fc.constantFrom(...DOMAINS) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('revoke' as const) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('regenerate' as const) }) },
);
/** Two to four waves of up to six operations; a wave's operations run at once. */
const waves = fc.array(fc.array(operation, { minLength: 1, maxLength: 6 }), { minLength: 2, maxLength: 4 });

let tenant: Tenant;
let product: Product;
beforeAll(async () => {
  tenant = await newTenant();
  product = await newProduct(tenant);
});

async function run(licenseId: string, startKey: string, plan: Operation[][]) {
  let key = startKey;
  const statuses: number[] = [];
  for (const wave of plan) {
    const keyOfWave = key;
    await Promise.all(
      wave.map(async (op) => {
        const res =
          op.kind === 'revoke'
            ? await tenant.post(`/api/licenses/${licenseId}/revoke`)
            : op.kind === 'regenerate'
              ? await tenant.post(`/api/licenses/${licenseId}/regenerate`)
              : await plugin().post(`/v1/licenses/${op.kind}`, { license_key: keyOfWave, domain: op.domain }, { origin: null });
        statuses.push(res.status);
        if (op.kind === 'regenerate' && res.status === 200) key = res.body.licenseKey;
      }),
    );
  }
  return statuses;
}

async function checkInvariants(licenseId: string) {
  const { body: license } = await tenant.get(`/api/licenses/${licenseId}`);
  const active = (license.activations as { id: string; domain: string; status: string; environment: string }[]).filter((a) => a.status === 'active');
  const production = active.filter((a) => a.environment === 'production');
  const staging = active.filter((a) => a.environment === 'staging');
  expect(production.map((a) => a.domain).every((domain) => PRODUCTION.includes(domain))).toBe(true);
  expect(staging.map((a) => a.domain).every((domain) => STAGING.includes(domain))).toBe(true);
  expect(production).toHaveLength(license.activatedCount);
  expect(staging).toHaveLength(license.stagingCount);
  expect(license.activatedCount).toBeLessThanOrEqual(license.seats);
  expect(license.stagingCount).toBeLessThanOrEqual(STAGING_LIMIT);
  expect(new Set(active.map((a) => a.domain)).size).toBe(active.length);
  if (license.status === 'revoked') expect(active).toEqual([]);
  const data = localData();
  for (const domain of DOMAINS) {
    const { data: holder } = await data.entities.activeDomain.get({ licenseId, domain }).go({ consistent: true });
    expect(holder?.activationId).toBe(active.find((a) => a.domain === domain)?.id);
  }
  return active.length;
}

describe('interleaved license operations', () => {
  it('keep every license invariant, whatever the order', async () => {
    let activeInAll = 0;
    await fc.assert(
      fc.asyncProperty(waves, fc.integer({ min: 1, max: 3 }), async (plan, seats) => {
        const license = await newLicense(tenant, product.id, { seats });
        const statuses = await run(license.id, license.licenseKey, plan);
        // Refusals are domain answers (seat limit, revoked, a key regenerated away, a concurrent change), never 5xx.
        expect(statuses.filter((status) => status >= 500)).toEqual([]);
        activeInAll += await checkInvariants(license.id);
      }),
      { numRuns: 15 },
    );
    const { body: counted } = await tenant.get('/api/activations?status=active&per_page=1');
    expect(counted.pagination.total).toBe(activeInAll);
  }, 120_000);
});
