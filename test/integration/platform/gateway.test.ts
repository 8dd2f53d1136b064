import { Agent, request } from 'node:http';
import { afterAll, describe, expect, inject, it } from 'vitest';

const MB = 1024 * 1024;
const agent = new Agent({ keepAlive: true, maxSockets: 1 });
afterAll(() => agent.destroy());

type Outcome = { status: number; body: string; reusedSocket: boolean };

/**
 * Sends `bytes` of body in 64 KB writes, each after the previous one was taken, as a client that streams
 * its upload does; fails on a reset connection. The agent keeps one connection alive between requests.
 */
function send(method: string, path: string, bytes: number): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, inject('baseUrl')), { method, agent, headers: { 'content-type': 'application/json', 'content-length': bytes } });
    req.on('error', reject);
    req.on('response', (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: Buffer.concat(chunks).toString(), reusedSocket: req.reusedSocket }));
    });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let left = bytes;
    const writeNext = () => {
      if (left <= 0) return req.end();
      const piece = chunk.subarray(0, Math.min(chunk.length, left));
      left -= piece.length;
      req.write(piece, (error) => (error ? reject(error) : writeNext()));
    };
    writeNext();
  });
}

describe('local gateway', () => {
  it('reads the whole body of a request to an unknown route, then answers 404 on a connection that stays usable', async () => {
    const first = await send('POST', '/nothing-here', 8 * MB);
    expect([first.status, JSON.parse(first.body)]).toEqual([404, { message: 'Not Found' }]);
    const next = await send('GET', '/health', 0);
    expect([next.status, next.reusedSocket]).toEqual([200, true]);
  });

  it('reads a body over the 10 MB limit to its end, then answers 413 on a connection that stays usable', async () => {
    const first = await send('POST', '/api/products', 12 * MB);
    expect([first.status, JSON.parse(first.body)]).toEqual([413, { message: 'Request Entity Too Large' }]);
    const next = await send('GET', '/health', 0);
    expect([next.status, next.reusedSocket]).toEqual([200, true]);
  });

  it('answers HEAD on a GET route as GET without a body, and OPTIONS preflights to the docs', async () => {
    const base = inject('baseUrl');
    for (const path of ['/health', '/openapi.json', '/docs', '/v1/wp/update-check?slug=nothing&license_key=x&version=1']) {
      const [get, head] = [await fetch(`${base}${path}`), await fetch(`${base}${path}`, { method: 'HEAD' })];
      expect([path, head.status, head.headers.get('content-type')]).toEqual([path, get.status, get.headers.get('content-type')]);
      expect(await head.text()).toBe('');
      expect((await get.text()).length).toBeGreaterThan(0);
    }
    for (const path of ['/docs', '/openapi.json', '/docs/init.js']) {
      const preflight = await fetch(`${base}${path}`, {
        method: 'OPTIONS',
        headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET', 'access-control-request-headers': 'content-type' },
      });
      expect([path, preflight.status, preflight.headers.get('access-control-allow-origin')]).toEqual([path, 204, '*']);
      expect(preflight.headers.get('access-control-allow-methods')).toContain('GET');
    }
    // No route takes PUT on /health: API Gateway's own 404, as for any method without a route.
    expect((await fetch(`${base}/health`, { method: 'PUT' })).status).toBe(404);
  });

  it('answers with the length of the body, as API Gateway does, not in chunks', async () => {
    const res = await fetch(`${inject('baseUrl')}/health`);
    const body = Buffer.from(await res.arrayBuffer());
    expect([res.headers.get('content-length'), res.headers.get('transfer-encoding')]).toEqual([String(body.length), null]);
  });

  it('hands path parameters over decoded once, routes on the decoded path and refuses one it cannot decode', async () => {
    const base = inject('baseUrl');
    const get = async (path: string) => {
      const res = await fetch(`${base}${path}`);
      return [res.status, await res.json().catch(() => null)];
    };
    // `%2E` is a dot: /docs/init.js itself.
    expect((await fetch(`${base}/docs/init%2Ejs`)).status).toBe(200);
    // Decoded once, `%252E` is `%2E`: no such asset (the function's 404), where decoding twice would serve init.js.
    expect(await get('/docs/init%252Ejs')).toEqual([404, { error: 'Not found' }]);
    // `%2F` is a slash before routing: one segment more, which `/docs/{asset}` does not match.
    expect(await get('/docs/x%2Finit.js')).toEqual([404, { message: 'Not Found' }]);
    expect(await get('/docs/%E0%A4%A')).toEqual([400, { message: 'Bad Request' }]);
  });
});
