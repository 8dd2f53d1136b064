import { createServer, type IncomingHttpHeaders } from 'node:http';

export type ReceivedRequest = { headers: IncomingHttpHeaders; body: string; json: any; at: number };

/**
 * A webhook endpoint on 127.0.0.1 for tests: records every request and answers with `status(n)` (n counts
 * from 1). `port` 0 picks a free one.
 */
export async function startReceiver(status: (n: number) => number = () => 200, port = 0) {
  const requests: ReceivedRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      requests.push({ headers: req.headers, body, json, at: Date.now() });
      res.writeHead(status(requests.length));
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`,
    requests,
    /** Resolves once at least `count` requests arrived; fails after `timeoutMs`. */
    async waitFor(count: number, timeoutMs = 20_000): Promise<ReceivedRequest[]> {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} webhook requests, got ${requests.length}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

export type Receiver = Awaited<ReturnType<typeof startReceiver>>;

/** Polls `probe` until it returns a value that is not undefined; fails after `timeoutMs`. */
export async function eventually<T>(probe: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
