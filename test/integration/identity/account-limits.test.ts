import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RATE_LIMITS } from '../../../shared/platform/rate-limits/limits.js';
import { Client, DASHBOARD_ORIGIN, newTenant, uniqueEmail, type Tenant } from '../../support/client.js';
import { newLicense, newProduct } from '../../support/licensing-fixtures.js';
import { TEST_PASSWORD_HASH_COST } from '../../support/global-setup.js';
import { startManagementGateway, type ManagementGateway } from '../../support/management-gateway.js';

/**
 * The limits of DECISIONS §20 at their real size (RATE_LIMIT_SCALE 1), over HTTP: the management function behind a
 * gateway of its own, on the shared stack's table, playing the front door (CloudFront) so that a test can call from any
 * address. Each test's buckets are its own (its tenant, its addresses, its accounts).
 */
const ORIGIN_VERIFY_TOKEN = 'account-limits-origin-token';
let gateway: ManagementGateway;

beforeAll(async () => {
  gateway = await startManagementGateway({ RATE_LIMIT_SCALE: '1', DASHBOARD_URL: DASHBOARD_ORIGIN, ORIGIN_VERIFY_TOKEN, PASSWORD_HASH_COST: TEST_PASSWORD_HASH_COST });
});
afterAll(() => gateway?.close());

/** A browser (or server) at `address`, through the front door, to this file's gateway: it keeps its cookies. */
class FrontDoorClient extends Client {
  constructor(readonly address: string) {
    super(gateway.url);
  }

  override request(method: string, path: string, options: Parameters<Client['request']>[2] = {}) {
    const viaFrontDoor = { 'x-origin-verify': ORIGIN_VERIFY_TOKEN, 'cloudfront-viewer-address': `${this.address}:443` };
    return super.request(method, path, { ...options, headers: { ...viaFrontDoor, ...options.headers } });
  }
}

/** `tenant`'s session (made on the shared stack) in a client of this gateway. */
function onGateway(tenant: Tenant, address = '127.0.9.1'): FrontDoorClient {
  const client = new FrontDoorClient(address);
  client.cookie = tenant.cookie;
  return client;
}

describe('invitations (DECISIONS §20)', () => {
  it('are at most 3 a day to one address, however often they are withdrawn in between', async () => {
    const owner = onGateway(await newTenant());
    const target = uniqueEmail('inbox');
    for (let sent = 0; sent < RATE_LIMITS.invitationAddress.capacity; sent++) {
      const invited = await owner.post('/api/team/invitations', { email: target, role: 'viewer' });
      expect(invited.status, invited.text).toBe(201);
      expect((await owner.delete(`/api/team/invitations/${invited.body.id}`)).status).toBe(204);
    }
    const refused = await owner.post('/api/team/invitations', { email: target.toUpperCase(), role: 'viewer' });
    expect([refused.status, refused.body]).toEqual([429, { error: 'Too many invitations to this address today; try again tomorrow' }]);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(3600);
    expect((await owner.get('/api/team/invitations')).body.items).toEqual([]);
    // From another account too: the address's inbox is what the limit keeps.
    const other = onGateway(await newTenant());
    expect((await other.post('/api/team/invitations', { email: target, role: 'viewer' })).status).toBe(429);
    expect((await other.post('/api/team/invitations', { email: uniqueEmail('elsewhere'), role: 'viewer' })).status).toBe(201);
  });

  it('are at most 20 a day per account', async () => {
    const owner = onGateway(await newTenant());
    for (let sent = 0; sent < RATE_LIMITS.invitationTenant.capacity; sent++) {
      expect((await owner.post('/api/team/invitations', { email: uniqueEmail(`invitee${sent}`), role: 'viewer' })).status).toBe(201);
    }
    const refused = await owner.post('/api/team/invitations', { email: uniqueEmail('one-more'), role: 'viewer' });
    expect([refused.status, refused.body]).toEqual([429, { error: 'Too many invitations today; try again tomorrow' }]);
    expect((await owner.get('/api/team/invitations')).body.items).toHaveLength(RATE_LIMITS.invitationTenant.capacity);
  });
});

describe('license transfers (DECISIONS §15, §20)', () => {
  it('are at most 100 a day per account: each e-mails the license to the address given', { timeout: 120_000 }, async () => {
    const tenant = await newTenant();
    const product = await newProduct(tenant);
    // Five licenses moved at once, each one transfer after another (one license's transfers would meet).
    const licenses = await Promise.all(Array.from({ length: 5 }, () => newLicense(tenant, product.id)));
    const vendor = onGateway(tenant);
    const transfer = (licenseId: string) => vendor.post(`/api/licenses/${licenseId}/transfer`, { email: uniqueEmail('owner') });
    const perLicense = RATE_LIMITS.licenseTransferTenant.capacity / licenses.length;
    await Promise.all(
      licenses.map(async (license) => {
        for (let made = 0; made < perLicense; made++) expect((await transfer(license.id)).status, `transfer ${made + 1} of ${license.id}`).toBe(200);
      }),
    );
    const owner = (await vendor.get(`/api/licenses/${licenses[0]!.id}`)).body.customerEmail;
    const refused = await transfer(licenses[0]!.id);
    expect([refused.status, refused.body]).toEqual([429, { error: 'Too many license transfers today; try again tomorrow' }]);
    expect((await vendor.get(`/api/licenses/${licenses[0]!.id}`)).body.customerEmail).toBe(owner);
  });
});

describe('login (DECISIONS §20)', () => {
  it('never locks a browser that signed in to the account before out of it, whatever fails from other addresses', async () => {
    const tenant = await newTenant();
    const credentials = { email: tenant.email, password: tenant.password };
    const owner = new FrontDoorClient('127.0.8.1');
    expect((await owner.post('/api/auth/login', credentials)).status).toBe(200);
    expect(owner.device).toMatch(/^[a-z2-7]{32}$/);

    // Wrong passwords from ten addresses: the account's bucket and its overflow for unknown addresses are spent.
    for (let host = 1; host <= 10; host++) {
      const guess = await new FrontDoorClient(`127.0.7.${host}`).post('/api/auth/login', { ...credentials, password: 'wrong password' });
      expect([401, 429]).toContain(guess.status);
    }
    const stranger = await new FrontDoorClient('127.0.7.100').post('/api/auth/login', credentials);
    expect([stranger.status, stranger.body]).toEqual([429, { error: 'Too many login attempts; try again later' }]);

    // The owner's browser, from its own address or a new one, signs in with the right password.
    expect((await owner.post('/api/auth/login', credentials)).status).toBe(200);
    const travelling = new FrontDoorClient('127.0.8.2');
    travelling.device = owner.device;
    expect((await travelling.post('/api/auth/login', credentials)).status).toBe(200);
  });

  it('gives a known browser a bucket of its own: a stolen device cookie guesses no faster than the account allows', async () => {
    const tenant = await newTenant();
    const credentials = { email: tenant.email, password: tenant.password };
    const browser = new FrontDoorClient('127.0.6.1');
    expect((await browser.post('/api/auth/login', credentials)).status).toBe(200);
    const thief = new FrontDoorClient('127.0.6.2');
    thief.device = browser.device;
    let refused;
    for (let guess = 0; guess < 2 * (RATE_LIMITS.loginEmail.capacity + RATE_LIMITS.loginDevice.capacity) && !refused; guess++) {
      const res = await thief.post('/api/auth/login', { ...credentials, password: 'wrong password' });
      if (res.status === 429) refused = res;
    }
    expect(refused?.body).toEqual({ error: 'Too many login attempts; try again later' });
  });
});
