import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type Seen = { method: string; url: string; headers: IncomingMessage['headers']; body: string; at: number };

/** One step of a scripted answer: what to do with the n-th request. */
export type Step =
  | { status: number; body?: unknown; headers?: Record<string, string>; raw?: string }
  /** Accept the request and never answer. */
  | 'stall'
  /** Send the status line and headers, then never the body. */
  | 'stall-body'
  /** Close the connection without an answer. */
  | 'reset';

/**
 * A local HTTP server that answers from a script (the last step repeats), recording every request: the service
 * as the client may meet it when it is slow, failing or rate limiting.
 */
export async function scriptServer(script: Step[] | ((seen: Seen, index: number) => Step)) {
  const seen: Seen[] = [];
  const sockets = new Set<Socket>();
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', () => {
      const request = { method: req.method!, url: req.url!, headers: req.headers, body: Buffer.concat(chunks).toString(), at: Date.now() };
      seen.push(request);
      const index = seen.length - 1;
      const step = typeof script === 'function' ? script(request, index) : script[Math.min(index, script.length - 1)]!;
      if (step === 'stall') return;
      if (step === 'reset') return void req.socket.destroy();
      if (step === 'stall-body') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
        res.write('{"valid":');
        return;
      }
      const text = step.raw ?? (step.body === undefined ? '' : JSON.stringify(step.body));
      res.writeHead(step.status, { 'content-type': step.raw ? 'text/html' : 'application/json', ...step.headers });
      res.end(text);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A port with nothing listening on it: connections are refused at once. */
export async function closedPort(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

export const VALID = {
  valid: true,
  license: { key: 'ACME-AAAA-BBBB-CCCC-DDDD', status: 'active', seats: 2, activatedCount: 1, stagingCount: 0, expiresAt: null, channel: 'stable' as const, inGrace: false, features: ['reports'] },
  product: { id: 'prd_aaaaaaaaaaaaaaaaaaaaaaaa', name: 'Acme', slug: 'acme' },
};
export const KEY = VALID.license.key;
export const PK = 'pk_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
