import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { DASHBOARD_DIST } from '../../../infra/dashboard-build.js';

/** The local gateway serves the built dashboard at `/` (built by the global setup) and never shadows the service's paths. */
const base = inject('baseUrl');

const get = (path: string, method = 'GET') => fetch(`${base}${path}`, { method, redirect: 'manual' });

describe('the dashboard on the local gateway', () => {
  it('answers its own routes with index.html, which is always revalidated', async () => {
    const index = readFileSync(join(DASHBOARD_DIST, 'index.html'), 'utf8');
    for (const path of ['/', '/sign-in', '/licenses/lic_aaaaaaaaaaaaaaaaaaaaaaaa', '/products/new']) {
      const res = await get(path);
      expect([path, res.status, res.headers.get('content-type')]).toEqual([path, 200, 'text/html; charset=utf-8']);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toBe(index);
    }
    expect((await get('/sign-in', 'HEAD')).status).toBe(200);
  });

  it('serves its hashed assets as immutable, and a missing file as 404', async () => {
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(readFileSync(join(DASHBOARD_DIST, 'index.html'), 'utf8'))![1]!;
    const res = await get(script);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await get('/assets/missing.js')).status).toBe(404);
    expect((await get('/assets/..%2f..%2fpackage.json')).status).toBe(404);
  });

  it('leaves every path of the service to the service', async () => {
    expect(await (await get('/api/no-such-route')).json()).toEqual({ error: 'Not found' });
    expect((await get('/api/auth/me')).status).toBe(401);
    expect(await (await get('/health')).json()).toEqual({ status: 'ok' });
    expect((await get('/health/extra')).headers.get('content-type')).toBe('application/json');
    expect((await get('/openapi.json')).headers.get('content-type')).toMatch(/^application\/json/);
    expect((await get('/docs')).headers.get('content-type')).toMatch(/^text\/html/);
    expect((await get('/public/v1/nothing')).headers.get('content-type')).toMatch(/^application\/json/);
    expect((await get('/dl/nothing')).headers.get('content-type')).toMatch(/^application\/json/);
    expect((await get('/_local/mail')).headers.get('content-type')).toBe('application/json');
    expect((await get('/_local/other')).headers.get('content-type')).toBe('application/json');
    // Only GET and HEAD reach the dashboard: another method on its paths is the gateway's 404.
    expect((await get('/sign-in', 'POST')).status).toBe(404);
  });
});
