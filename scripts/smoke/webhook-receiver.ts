import { EventEmitter, once } from 'node:events';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Delivery = { headers: IncomingHttpHeaders; body: string };

/** An HTTP endpoint on this machine that answers 200 to every webhook and keeps what it received. */
export async function startWebhookReceiver() {
  const received: Delivery[] = [];
  const arrivals = new EventEmitter();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200).end();
      arrivals.emit('delivery');
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/smoke-webhook`,
    /** The first delivery `accept` takes, waiting for it up to `timeoutMs`. */
    async next(accept: (delivery: Delivery) => boolean, timeoutMs: number): Promise<Delivery> {
      const timeout = AbortSignal.timeout(timeoutMs);
      for (;;) {
        const found = received.find(accept);
        if (found) return found;
        try {
          await once(arrivals, 'delivery', { signal: timeout });
        } catch {
          throw new Error(`no delivery within ${timeoutMs / 1000} s (${received.length} others arrived)`);
        }
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export type WebhookReceiver = Awaited<ReturnType<typeof startWebhookReceiver>>;
