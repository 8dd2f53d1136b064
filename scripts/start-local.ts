import { startLocalStack } from '../infra/local/stack.js';

/** `npm start`: the whole service on this machine (DECISIONS §1). Ctrl-C stops everything it started. */
const port = Number(process.env.PORT ?? 3000);
const dataDir = process.env.DATA_DIR ?? '.data';

const stack = await startLocalStack({ port, dataDir });
console.log(`Licensing service listening on ${stack.url} (data: ${dataDir})`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    console.log('Stopping…');
    await stack.stop();
    process.exit(0);
  });
}
