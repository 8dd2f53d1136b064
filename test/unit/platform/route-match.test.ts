import { describe, expect, it } from 'vitest';
import { createRouteMatcher } from '../../../infra/local/route-match.js';
import { ROUTES, type RouteSpec } from '../../../infra/routes.js';

// Route shapes the service uses, with placeholder surfaces: precedence is what is under test.
const routes = [
  { method: 'ANY', path: '/v1/{proxy+}', surface: 'edge' },
  { method: 'ANY', path: '/v1/portal/{proxy+}', surface: 'portal' },
  { method: 'POST', path: '/v1/webhooks/stripe/{userId}', surface: 'stripe' },
  { method: 'GET', path: '/health', surface: 'edge' },
  { method: 'ANY', path: '/health', surface: 'other' },
] as unknown as RouteSpec[];

describe('local route selection (API Gateway precedence)', () => {
  const match = createRouteMatcher(routes);
  const surfaceOf = (method: string, path: string) => (match(method, path)?.route.surface as string | undefined) ?? null;

  it('prefers the longer greedy prefix', () => {
    expect(surfaceOf('GET', '/v1/portal/licenses')).toBe('portal');
    expect(surfaceOf('POST', '/v1/licenses/validate')).toBe('edge');
  });

  it('prefers a route without a greedy segment, and gives its path parameters', () => {
    const found = match('POST', '/v1/webhooks/stripe/usr_1');
    expect(found?.route.surface).toBe('stripe');
    expect(found?.pathParameters).toEqual({ userId: 'usr_1' });
    expect(surfaceOf('GET', '/v1/webhooks/stripe/usr_1')).toBe('edge');
  });

  it('prefers an exact method over ANY', () => {
    expect(surfaceOf('GET', '/health')).toBe('edge');
    expect(surfaceOf('POST', '/health')).toBe('other');
  });

  it('gives the greedy remainder as `proxy` and matches nothing outside the table', () => {
    expect(match('GET', '/v1/wp/update-check')?.pathParameters).toEqual({ proxy: 'wp/update-check' });
    expect(match('GET', '/elsewhere')).toBeUndefined();
  });

  it('sends Stripe\'s deliveries to their own function in the real route table, and the rest of /v1 to edge', () => {
    const real = createRouteMatcher(ROUTES);
    expect(real('POST', '/v1/webhooks/stripe/usr_1')?.route.surface).toBe('stripeWebhook');
    expect(real('GET', '/v1/webhooks/stripe/usr_1')?.route.surface).toBe('edge');
    // The desktop feeds and their files (DECISIONS §26), HEAD included: the edge's, in the stack and the local gateway.
    for (const path of ['/v1/feeds/acme/electron/latest-mac.yml', '/v1/feeds/acme/tauri/darwin/aarch64/1.0.0', '/v1/feeds/acme/sparkle/appcast.xml', '/v1/download/rel_1/macos-arm64/App.zip']) {
      for (const method of ['GET', 'HEAD']) expect(real(method, path)?.route.surface, `${method} ${path}`).toBe('edge');
    }
  });
});
