import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** An answer of the service as the proxy received it: status, headers and the exact body bytes. */
export type Upstream = { status: number; headers: Record<string, string>; body: Buffer };

/** What the proxy does with the n-th request once the service has answered it. */
export type Interception =
  /** Pass the answer on unchanged. */
  | 'pass'
  /** The service acted, but the client never hears: the connection is dropped. */
  | 'drop'
  /** Answer this instead (a changed body, stripped headers, another status…). */
  | Upstream;

export type Exchange = { path: string; requestHeaders: IncomingMessage['headers']; upstream: Upstream };

/** What the proxy sends the service in place of the client's JSON body (a relay asking with its own key or site). */
export type RequestRewrite = (body: Record<string, unknown>) => Record<string, unknown>;

/**
 * A local HTTP proxy in front of the local stack: every request is forwarded to the real service, and the test
 * decides what the client gets back: the service's own answer, nothing (a lost answer after the service acted), or
 * an answer changed as a man in the middle would change it. With `rewrite`, JSON bodies are changed on the way to
 * the service, as a relay would. Records every exchange.
 */
export async function forwardingProxy(
  target: string,
  intercept: (exchange: Exchange, index: number) => Interception = () => 'pass',
  rewrite?: RequestRewrite,
) {
  const exchanges: Exchange[] = [];
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk) => chunks.push(chunk));
    req.on('end', async () => {
      const headers = Object.fromEntries(
        Object.entries(req.headers).filter(([name]) => !['host', 'connection', 'content-length'].includes(name)) as [string, string][],
      );
      const sent = chunks.length ? Buffer.concat(chunks) : undefined;
      const body = sent && rewrite ? Buffer.from(JSON.stringify(rewrite(JSON.parse(sent.toString('utf8'))))) : sent;
      const answer = await fetch(`${target}${req.url}`, { method: req.method, headers, body });
      const passed: Record<string, string> = {};
      answer.headers.forEach((value, name) => {
        // The body is passed on as fetch decoded it; the framing is the proxy's own.
        if (!['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive'].includes(name)) passed[name] = value;
      });
      const upstream: Upstream = { status: answer.status, headers: passed, body: Buffer.from(await answer.arrayBuffer()) };
      const exchange = { path: req.url!, requestHeaders: req.headers, upstream };
      exchanges.push(exchange);
      const action = intercept(exchange, exchanges.length - 1);
      if (action === 'drop') return void req.socket.destroy();
      const answered = action === 'pass' ? upstream : action;
      res.writeHead(answered.status, answered.headers);
      res.end(answered.body);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    exchanges,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
