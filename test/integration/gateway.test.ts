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
});
