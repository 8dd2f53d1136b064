import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll } from 'vitest';

/**
 * A TCP server that accepts connections and never answers, for the file's tests (started before them, closed after):
 * a table or an API that hangs. Its endpoint is read once the server listens; `connections`: how many were made.
 */
export function hangingServer(): { endpoint: () => string; connections: () => number } {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
  });
  beforeAll(() => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve)));
  afterAll(() => {
    for (const socket of sockets) socket.destroy();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  });
  return { endpoint: () => `http://127.0.0.1:${(server.address() as { port: number }).port}`, connections: () => sockets.size };
}
