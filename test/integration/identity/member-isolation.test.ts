import { beforeAll, describe, expect, it } from 'vitest';
import type { IdPrefix } from '../../../shared/platform/ids.js';
import { pathParams } from '../../support/malformed-probes.js';
import { Client, newTenant, uniqueEmail, type Response } from '../../support/client.js';
import { newLicense, newProduct, newRelease, type Tenant } from '../../support/licensing-fixtures.js';
import { inBatches, itemsNaming, pathNaming, permissionRoutes, sendEmpty } from '../../support/management-routes.js';
import { settledSnapshot, snapshotChanges } from '../../support/table-snapshot.js';
import { joinedMember } from '../../support/team.js';

/**
 * Tenant isolation for members (DECISIONS §17 and §2): an admin of tenant A, signed in and by A's API key, reaches
 * nothing of tenant B through any management route (read from the route table): no answer without ids names any of
 * B's items, and every route given B's ids answers as for ids of nothing (404, or the 400 of a body it checks
 * first), leaving B's items as they were.
 */
let callers: { label: string; client: Client }[];
let other: Tenant;
let otherIds: Partial<Record<IdPrefix, string>>;

async function created(res: Promise<Response>, status = 201) {
  const { status: actual, body, text } = await res;
  expect(actual, text).toBe(status);
  return body;
}

/** Tenant B with one item of each kind a management path names. */
async function otherTenantWithData() {
  const tenant = await newTenant();
  const product = await newProduct(tenant);
  const [plan, release, license, customer, webhook, apiKey, invitation] = await Promise.all([
    created(tenant.post(`/api/products/${product.id}/plans`, { name: 'Pro', billingCycle: 'yearly', price: 49, currency: 'usd' })),
    newRelease(tenant, product.id, { version: '1.0.0' }),
    newLicense(tenant, product.id),
    created(tenant.post('/api/customers', { email: uniqueEmail('customer'), firstName: 'Other' })),
    // Subscribed to an event nothing here emits, so no delivery is made while B's items are compared.
    created(tenant.post('/api/webhooks', { name: 'Other', url: 'http://127.0.0.1:9/hook', events: ['subscription.renewed'] })),
    created(tenant.post('/api/api-keys', { name: 'Other key' })),
    created(tenant.post('/api/team/invitations', { email: uniqueEmail('invitee'), role: 'viewer' })),
  ]);
  const activation = await created(
    tenant.post('/v1/licenses/activate', { license_key: license.licenseKey, domain: 'example.com' }, { origin: null }),
    200,
  );
  const ids = {
    usr: tenant.userId, prd: product.id, pln: plan.id, rel: release.id, lic: license.id, act: activation.activation_id,
    cus: customer.id, whk: webhook.id, key: apiKey.id, inv: invitation.id,
  };
  return { tenant, ids };
}

beforeAll(async () => {
  const [owner, b] = await Promise.all([newTenant(), otherTenantWithData()]);
  other = b.tenant;
  otherIds = b.ids;
  const admin = await joinedMember(owner, 'admin', owner.userId);
  const key = Object.assign(new Client(), { bearer: (await created(owner.post('/api/api-keys', { name: 'A admin key' }))).key as string });
  callers = [{ label: "A's admin member", client: admin }, { label: "A's admin API key", client: key }];
}, 60_000);

/** What of B an answer names: its ids, its owner's address. */
const namesOther = (text: string) => [...Object.values(otherIds), other.email].filter((value) => text.includes(value!));

describe("a member of tenant A and tenant B's data (DECISIONS §17)", () => {
  it("lists none of B's items on any route", async () => {
    const lists = permissionRoutes.filter((route) => route.method === 'GET' && pathParams(route.path).length === 0);
    const calls = callers.flatMap((caller) => lists.map((route) => ({ caller, route })));
    const answers = await inBatches(calls, ({ caller, route }) => sendEmpty(caller.client, route, route.path));
    const leaks = calls.flatMap(({ caller, route }, index) => {
      const { status, text } = answers[index]!;
      const named = namesOther(text);
      return status >= 500 || named.length ? [`${caller.label}: GET ${route.path} → ${status}, naming ${named.join(', ')}`] : [];
    });
    expect(leaks).toEqual([]);
    expect(lists.length).toBeGreaterThan(5);
  }, 60_000);

  it("answers B's ids as unknown on every route, and changes nothing of B's", async () => {
    const byOtherIds = permissionRoutes.filter((route) => {
      const kinds = route.input!.pathIds ?? {};
      return Object.values(kinds).some((kind) => !kind.shape && otherIds[kind.prefix]);
    });
    const before = await settledSnapshot(() => itemsNaming([other.userId]));
    // A key never reaches the account's own credentials (DECISIONS §13), whoever's ids they are given.
    const calls = callers.flatMap((caller) => byOtherIds.filter((route) => caller.client.cookie || !route.input!.sessionOnly).map((route) => ({ caller, route })));
    const answers = await inBatches(calls, ({ caller, route }) => sendEmpty(caller.client, route, pathNaming(route, otherIds)));
    const reached = calls.flatMap(({ caller, route }, index) => {
      const { status, text } = answers[index]!;
      // A write may refuse its empty body (400, or 415 for an upload) before it looks anything up; a read has only the ids.
      const unknown = status === 404 || (route.method !== 'GET' && [400, 415].includes(status));
      return unknown && namesOther(text).length === 0 ? [] : [`${caller.label}: ${route.method} ${route.path} → ${status} ${text}`];
    });
    expect(reached).toEqual([]);
    expect(snapshotChanges(before, await itemsNaming([other.userId]))).toEqual([]);
    expect(byOtherIds.length).toBeGreaterThan(20);
  }, 60_000);
});
