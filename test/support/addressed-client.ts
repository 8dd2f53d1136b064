import { request } from 'node:http';

export type AddressedResponse = { status: number; headers: Record<string, string | string[] | undefined>; body: any };

/**
 * A JSON request sent from a chosen loopback address (any of 127.0.0.0/8 works on Linux), so that tests
 * can be different callers to per-address limits while all running on one machine.
 */
export function requestFrom(
  localAddress: string,
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<AddressedResponse> {
  const url = new URL(path, baseUrl);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: url.port,
        path: `${url.pathname}${url.search}`,
        method,
        localAddress,
        headers: { ...(payload && { 'content-type': 'application/json' }), ...headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text ? JSON.parse(text) : undefined });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}
