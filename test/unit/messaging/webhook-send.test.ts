import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { postJson } from '../../../shared/messaging/webhooks/send.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise<void>((resolve) => { s.closeAllConnections(); s.close(() => resolve()); })));
});

/** A server on 127.0.0.1 that counts requests and answers with `respond`. */
async function server(respond: (res: import('node:http').ServerResponse) => void) {
  const hits: string[] = [];
  const s = createServer((req, res) => {
    hits.push(req.url ?? '');
    req.resume();
    respond(res);
  });
  servers.push(s);
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  return { port: (s.address() as { port: number }).port, hits };
}

describe('webhook sender', () => {
  it('with the guard on, refuses loopback, private, metadata and IPv6 loopback targets without connecting', async () => {
    const target = await server((res) => res.end());
    for (const host of ['127.0.0.1', '10.0.0.1', '169.254.169.254', '[::1]', '[::ffff:127.0.0.1]', 'localhost']) {
      const result = await postJson(`http://${host}:${target.port}/hook`, '{}', {}, { guard: true, timeoutMs: 2000 });
      expect(result, host).toEqual({ success: false, status: 0, statusText: expect.stringMatching(/^Address not allowed: /) });
    }
    expect(target.hits).toEqual([]);
  });

  it('with the guard off, reaches a local receiver', async () => {
    const target = await server((res) => res.writeHead(204).end());
    expect(await postJson(`http://127.0.0.1:${target.port}/hook`, '{}', {}, { guard: false })).toEqual({
      success: true,
      status: 204,
      statusText: 'No Content',
    });
    expect(target.hits).toEqual(['/hook']);
  });

  it('does not follow a redirect and counts it as a failure', async () => {
    const target = await server((res) => res.writeHead(302, { location: '/elsewhere' }).end());
    expect(await postJson(`http://127.0.0.1:${target.port}/hook`, '{}', {}, { guard: false })).toMatchObject({ success: false, status: 302 });
    expect(target.hits).toEqual(['/hook']);
  });

  it('stops reading an endless answer and still reports its status', async () => {
    const target = await server((res) => {
      res.writeHead(200);
      const chunk = Buffer.alloc(64 * 1024, 'x');
      const pump = () => {
        while (!res.destroyed && res.write(chunk));
        if (!res.destroyed) res.once('drain', pump);
      };
      pump();
    });
    expect(await postJson(`http://127.0.0.1:${target.port}/hook`, '{}', {}, { guard: false, timeoutMs: 5000 })).toMatchObject({ success: true, status: 200 });
  });

  it('gives up on a receiver that does not answer in time', async () => {
    const target = await server(() => undefined);
    const result = await postJson(`http://127.0.0.1:${target.port}/hook`, '{}', {}, { guard: false, timeoutMs: 300 });
    expect(result).toEqual({ success: false, status: 0, statusText: 'Timed out after 0.3 s' });
  });
});
