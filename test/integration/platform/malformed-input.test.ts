import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edgeRoutes } from '../../../functions/edge/app.js';
import { createManagementDeps, managementRoutes, type ManagementDeps } from '../../../functions/management/app.js';
import { createPortalRoutes } from '../../../functions/portal/app.js';
import { publicRoutes } from '../../../functions/public/app.js';
import { stripeWebhookRoutes } from '../../../functions/stripe-webhook/app.js';
import { freePort } from '../../../infra/local/ports.js';
import { createRouteMatcher } from '../../../infra/local/route-match.js';
import { startLocalStack, type LocalStack } from '../../../infra/local/stack.js';
import { ROUTES, type Surface } from '../../../infra/routes.js';
import { ALL_CONFIG_SECTIONS, loadConfig } from '../../../shared/platform/config.js';
import type { Route } from '../../../shared/platform/http/route.js';
import { newId } from '../../../shared/platform/ids.js';
import { Client, DASHBOARD_ORIGIN } from '../../support/client.js';
import { newRelease, type Tenant } from '../../support/licensing-fixtures.js';
import { verifyAddress } from '../../support/mail.js';
import {
  fillPath, malformedIds, pathParams, probesFor, realParams, workingQuery, type Probe, type SweepTargets,
} from '../../support/malformed-probes.js';
import { settledSnapshot, snapshotChanges, snapshotTable, type TableSnapshot } from '../../support/table-snapshot.js';

/**
 * Every route of the four surfaces, sent malformed paths, bodies and queries, as a tenant and as nobody:
 * each answer is a 4xx within a few seconds, and the table holds exactly what it held before. The routes come
 * from the apps themselves, so a new route is swept without a change here. Its own stack: nothing else writes.
 */
const SURFACE_ROUTES: Record<Surface, (deps: ManagementDeps) => Route[]> = {
  management: managementRoutes,
  edge: edgeRoutes,
  public: publicRoutes,
  portal: createPortalRoutes,
  stripeWebhook: stripeWebhookRoutes,
  // Static files: no input is read and nothing can be written (its `{asset}` is a file name, not an id).
  docs: () => [],
};
const CONCURRENCY = 16;
const ANSWER_WITHIN_MS = 5_000;

let stack: LocalStack;
let tenant: Client;
let targets: SweepTargets;
let routes: { surface: Surface; route: Route }[];
let before: TableSnapshot;

const snapshot = () => snapshotTable(process.env.DYNAMODB_ENDPOINT!, process.env.TABLE_NAME!);

/** The body of an answer that must have `status`. */
async function bodyOf(res: Promise<{ status: number; body: any; text: string }>, status = 201) {
  const { status: actual, body, text } = await res;
  expect(actual, text).toBe(status);
  return body;
}

/** One of each resource, so that requests can point at real things and be wrong in one place only. */
async function createFixtures(): Promise<SweepTargets> {
  const product = await bodyOf(tenant.post('/api/products', { name: 'Sweep Plugin', productType: 'plugin' }));
  const plan = await bodyOf(tenant.post(`/api/products/${product.id}/plans`, { name: 'Pro', billingCycle: 'yearly', price: 49, currency: 'usd' }));
  const release = await newRelease(tenant as Tenant, product.id, { version: '1.0.0' });
  const license = await bodyOf(tenant.post('/api/licenses', { productId: product.id, planId: plan.id, customerEmail: 'buyer@example.com', seats: 2 }));
  const activation = await bodyOf(
    tenant.post('/v1/licenses/activate', { license_key: license.licenseKey, domain: 'example.com' }, { origin: null }),
    200,
  );
  const customer = await bodyOf(tenant.post('/api/customers', { email: 'customer@example.com', firstName: 'Sweep' }));
  // Subscribed to an event nothing here emits, so the pipeline records no delivery while the sweep runs.
  const webhook = await bodyOf(tenant.post('/api/webhooks', { name: 'Sweep', url: 'http://127.0.0.1:9/hook', events: ['subscription.renewed'] }));
  const apiKey = await bodyOf(tenant.post('/api/api-keys', { name: 'Sweep key' }));
  const me = await bodyOf(tenant.get('/api/auth/me'), 200);
  return {
    ids: {
      usr: me.user.id, prd: product.id, pln: plan.id, rel: release.id, lic: license.id, act: activation.activation_id,
      cus: customer.id, whk: webhook.id, key: apiKey.id,
    },
    licenseKey: license.licenseKey,
    publicKey: product.public_key,
    slug: product.slug,
  };
}

beforeAll(async () => {
  const port = await freePort();
  stack = await startLocalStack({
    port,
    dataDir: ':memory:',
    lightJvm: true,
    env: {
      DASHBOARD_URL: DASHBOARD_ORIGIN,
      PUBLIC_BASE_URL: `http://localhost:${port}`,
      WEBHOOK_RETRY_SCALE: '0.0001',
      // Nothing may write on its own while the table is compared: no expiry sweep, no rate-limit refusals.
      EXPIRY_SWEEP_INTERVAL_MS: '0',
      RATE_LIMIT_SCALE: '0',
    },
  });
  tenant = new Client(stack.url);
  const registered = await tenant.post('/api/auth/register', { email: 'sweep@example.com', password: 'correct horse battery' });
  expect(registered.status, registered.text).toBe(201);
  // Its webhook, and the routes that reach beyond the account, need a verified address (DECISIONS §20).
  await verifyAddress('sweep@example.com', stack.url);
  targets = await createFixtures();
  const deps = createManagementDeps(loadConfig(process.env, ALL_CONFIG_SECTIONS));
  routes = (Object.keys(SURFACE_ROUTES) as Surface[]).flatMap((surface) => SURFACE_ROUTES[surface](deps).map((route) => ({ surface, route })));
  before = await settledSnapshot(snapshot);
}, 120_000);

afterAll(async () => {
  await stack?.stop();
});

type Answer = { status: number; body: string; ms: number; location?: string | null };

/**
 * A refusal as a browser gets it: the verification link answers a bad token with a redirect to the dashboard's
 * `?error=invalid_token` (its 400, DECISIONS §13), since a person opened it from an e-mail.
 */
const refusedToDashboard = (answer: Answer) => answer.status === 302 && answer.location === `${DASHBOARD_ORIGIN}/?error=invalid_token`;

async function send(probe: Probe, cookie: string | undefined): Promise<Answer> {
  const headers: Record<string, string> = { origin: DASHBOARD_ORIGIN };
  if (cookie) headers.cookie = `session=${cookie}`;
  if (probe.contentType) headers['content-type'] = probe.contentType;
  const started = performance.now();
  const res = await fetch(`${stack.url}${probe.path}`, {
    method: probe.method,
    headers,
    body: probe.body,
    redirect: 'manual',
    signal: AbortSignal.timeout(ANSWER_WITHIN_MS * 2),
  });
  const body = await res.text();
  return { status: res.status, body, ms: performance.now() - started, location: res.headers.get('location') };
}

/** Runs `task` over `items`, at most `limit` at a time. */
async function inParallel<T, R>(items: T[], limit: number, task: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return results;
}

async function expectNothingWritten() {
  const changes = snapshotChanges(before, await settledSnapshot(snapshot));
  expect(changes.map((change) => change.slice(0, 300))).toEqual([]);
}

describe('malformed input, on every route', () => {
  it('reaches every route of every surface through the gateway route table', () => {
    const match = createRouteMatcher(ROUTES);
    expect(routes.length).toBeGreaterThan(50);
    for (const { surface, route } of routes) {
      const path = fillPath(route.path, realParams(route, targets));
      expect(match(route.method, path)?.route.surface, `${route.method} ${route.path}`).toBe(surface);
    }
  });

  it('answers an id of the wrong shape in any path exactly as an id of nothing', async () => {
    /** Bodies some routes need before they look at their path's ids. */
    const workingBodies: Record<string, unknown> = {
      'POST /api/products/{id}/plans': { name: 'Pro', billingCycle: 'yearly', price: 1, currency: 'usd' },
      'POST /api/products/{id}/releases': { version: '1.0.1', filePath: 'releases/nowhere.zip' },
      'POST /api/products/{id}/releases/upload-url': { fileName: 'plugin.zip', fileSize: 1000 },
      'POST /api/products/{id}/releases/{releaseId}/files': {
        platform: 'linux-x64', fileName: 'app.deb', fileSize: 1000, filePath: 'releases/nowhere.deb', sha512: `${'A'.repeat(86)}==`,
      },
    };
    // One task per path parameter of each route, its requests in turn; the tasks side by side.
    // Path values that are not ids (a slug, a platform) are swept below.
    const tasks = routes.flatMap(({ route }) => pathParams(route.path).filter((param) => route.input?.pathIds?.[param]).map((param) => ({ route, param })));
    const found = await inParallel(tasks, CONCURRENCY, async ({ route, param }) => {
      const real = realParams(route, targets);
      const body = workingBodies[`${route.method} ${route.path}`];
      const request = (params: Record<string, string>): Probe => ({
        label: '',
        method: route.method,
        path: fillPath(route.path, params) + workingQuery(route, targets),
        ...(body ? { body: JSON.stringify(body), contentType: 'application/json' } : {}),
      });
      const prefix = route.input!.pathIds![param]!.prefix;
      const unknown = await send(request({ ...real, [param]: newId(prefix) }), tenant.cookie);
      const mismatches = unknown.status >= 400 ? [] : [`${route.method} ${route.path} with an unknown {${param}}: ${unknown.status}`];
      // Paths are decoded before routing (docs/deploy.md): a bad escape never reaches a route (the gateway's 400), and
      // an encoded slash is two segments, another route or none (404). The sweep below holds them to a 4xx.
      for (const [label, raw] of malformedIds(prefix, targets).filter(([label]) => !/percent|slash/.test(label))) {
        const malformed = await send(request({ ...real, [param]: raw }), tenant.cookie);
        if (malformed.status !== unknown.status || malformed.body !== unknown.body) {
          mismatches.push(`${route.method} ${route.path} {${param}} ${label}: ${malformed.status} ${malformed.body} ≠ ${unknown.status} ${unknown.body}`);
        }
      }
      return mismatches;
    });
    const mismatches = found.flat();
    expect(mismatches).toEqual([]);
    await expectNothingWritten();
  }, 60_000);

  it('answers every malformed request with a 4xx within seconds, as a tenant and as nobody, and writes nothing', async () => {
    const probes = routes.flatMap(({ surface, route }) =>
      probesFor(route, surface, targets).map((probe) => ({ ...probe, surface, label: `${probe.method} ${route.path} ${probe.label}` })),
    );
    probes.push(
      ...(['management', 'edge', 'public'] as const).map((surface) => {
        const prefix = { management: '/api', edge: '/v1', public: '/public/v1' }[surface];
        return { surface, label: `${prefix}: bad encoding`, method: 'GET', path: `${prefix}/%E0%A4%A` };
      }),
    );
    // The session cookie is read by the management API alone: elsewhere a request without it is the same request.
    const callers = [
      ['as the tenant', tenant.cookie, probes],
      ['unauthenticated', undefined, probes.filter((probe) => probe.surface === 'management')],
    ] as const;
    const failures: string[] = [];
    for (const [caller, cookie, sent] of callers) {
      const answers = await inParallel(sent, CONCURRENCY, (probe) =>
        send(probe, cookie).catch((error: Error): Answer => ({ status: 0, body: String(error), ms: Infinity })),
      );
      answers.forEach((answer, i) => {
        const ok = ((answer.status >= 400 && answer.status < 500) || refusedToDashboard(answer)) && answer.ms < ANSWER_WITHIN_MS;
        if (!ok) failures.push(`${caller} ${sent[i]!.label}: ${answer.status} in ${Math.round(answer.ms)} ms ${answer.body.slice(0, 200)}`);
      });
    }
    expect(probes.length).toBeGreaterThan(1000);
    expect(failures.slice(0, 40), `${failures.length} failed`).toEqual([]);
    await expectNothingWritten();
    // Over two thousand requests: minutes while the other workers share the cores. Each answer is held to ANSWER_WITHIN_MS.
  }, 240_000);
});
