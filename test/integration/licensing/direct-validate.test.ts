import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createEdgeHandler } from '../../../functions/edge/app.js';
import { createManagementDeps, createManagementHandler } from '../../../functions/management/app.js';
import { createPublicDeps, createPublicHandler } from '../../../functions/public/app.js';
import { createGateway, type LambdaHandler } from '../../../infra/local/gateway.js';
import { ROUTES, type Surface } from '../../../infra/routes.js';
import { ALL_CONFIG_SECTIONS, loadConfig } from '../../../shared/platform/config.js';
import { createDeps } from '../../../shared/platform/runtime.js';
import { Client, DASHBOARD_ORIGIN } from '../../support/client.js';
import { newLicense, newProduct, type Tenant } from '../../support/licensing-fixtures.js';
import { rawCall } from '../../support/signature-verifier.js';

/**
 * A validate (and on the public API a check or an offline license file) is served by direct requests alone (shared/platform/data/direct-request-shapes.ts): a cold edge or public
 * container answers it, refusals included, and records the domain's last check, without loading the data model
 * (ElectroDB, shared/platform/data/model.ts); the first route that needs the model loads it. Each surface here is a container of
 * the test's own, behind a gateway of its own, so that no other request has loaded its model.
 */
describe('a validate', () => {
  const config = loadConfig(
    {
      RUNTIME: 'local', TABLE_NAME: inject('tableName'), DYNAMODB_ENDPOINT: inject('dynamoEndpoint'), RATE_LIMIT_SCALE: '1000',
      DASHBOARD_URL: DASHBOARD_ORIGIN, LOCAL_PROVIDER_KEY: randomBytes(32).toString('base64'),
    },
    ALL_CONFIG_SECTIONS,
  );
  const management = createManagementHandler(createManagementDeps(config));
  const servers: Server[] = [];

  /** A gateway in front of the given handlers: its base URL. */
  async function gateway(handlers: Partial<Record<Surface, unknown>>): Promise<string> {
    const server = createGateway({ routes: ROUTES, handlers: { management, ...handlers } as Record<Surface, LambdaHandler>, localRoutes: {} });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, resolve));
    return `http://localhost:${(server.address() as AddressInfo).port}`;
  }

  let vendor: Tenant;
  let setupUrl: string;
  beforeAll(async () => {
    // Activations are made through containers of their own, so the ones under test stay cold.
    setupUrl = await gateway({ edge: createEdgeHandler(createDeps(config, 'edge')), public: createPublicHandler(createPublicDeps(config)) });
    const client = new Client(setupUrl);
    const res = await client.post('/api/auth/register', { email: `direct-${randomBytes(4).toString('hex')}@example.com`, password: 'correct horse battery' });
    expect(res.status).toBe(201);
    vendor = Object.assign(client, { email: '', password: '', userId: res.body.user.id as string });
  });

  afterAll(async () => {
    for (const server of servers) server.closeAllConnections();
    await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
  });

  const post = (baseUrl: string, path: string, body: unknown) => rawCall('POST', path, { body, baseUrl });

  it('loads no data model in a cold edge or public container, answers and refusals alike; activate loads it', async () => {
    const product = await newProduct(vendor);
    const license = await newLicense(vendor, product.id, { seats: 3 });
    const publicKey = product.public_key as string;
    const domain = 'direct.example';
    expect((await post(setupUrl, '/v1/licenses/activate', { license_key: license.licenseKey, domain })).status).toBe(200);

    const edgeDeps = createDeps(config, 'edge');
    const publicDeps = createPublicDeps(config);
    const probeUrl = await gateway({ edge: createEdgeHandler(edgeDeps), public: createPublicHandler(publicDeps) });
    const calls = [
      { prefix: '/v1', deps: edgeDeps, claim: { license_key: license.licenseKey } },
      { prefix: '/public/v1', deps: publicDeps, claim: { public_key: publicKey, license_key: license.licenseKey } },
    ];
    for (const { prefix, deps, claim } of calls) {
      const valid = await post(probeUrl, `${prefix}/licenses/validate`, { ...claim, domain: `https://${domain}/wp-admin` });
      expect([valid.status, valid.json]).toMatchObject([200, { valid: true, license: { key: license.licenseKey }, product: { id: product.id } }]);
      const unknown = await post(probeUrl, `${prefix}/licenses/validate`, { ...claim, license_key: 'NOPE-AAAA-BBBB-CCCC-DDDD' });
      expect([unknown.status, unknown.json]).toMatchObject([404, { valid: false, error: 'License key not found' }]);
      const malformed = await post(probeUrl, `${prefix}/licenses/validate`, { ...claim, license_key: 7 });
      expect([malformed.status, (malformed.json as { valid: boolean }).valid]).toEqual([400, false]);
      if (prefix === '/public/v1') {
        // A check and an offline license file read the domain's activation directly too.
        const check = await post(probeUrl, `${prefix}/licenses/check`, { ...claim, domain });
        expect([check.status, check.json]).toMatchObject([200, { activated: true, activation_id: expect.stringMatching(/^act_/) }]);
        const offline = await post(probeUrl, `${prefix}/licenses/offline`, { ...claim, domain });
        expect([offline.status, offline.json]).toMatchObject([200, { license_file: expect.any(String) }]);
        const elsewhere = await post(probeUrl, `${prefix}/licenses/check`, { ...claim, domain: 'elsewhere.example' });
        expect([elsewhere.status, elsewhere.json]).toMatchObject([200, { activated: false, activation_id: null }]);
      }
      expect(deps.data.loaded).toBe(false);
    }
    // The check was recorded (the direct update of the domain's item), and every view shows it.
    const { body } = await vendor.get(`/api/licenses/${license.id}`);
    expect(body.activations).toEqual([expect.objectContaining({ domain, lastCheckedAt: expect.any(String) })]);

    for (const [index, { prefix, deps, claim }] of calls.entries()) {
      const activated = await post(probeUrl, `${prefix}/licenses/activate`, { ...claim, domain: `second-${index}.example` });
      expect(activated.status).toBe(200);
      expect(deps.data.loaded).toBe(true);
    }
  });
});
