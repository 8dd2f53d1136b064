import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/ports.js';
import { Client, DASHBOARD_ORIGIN } from '../support/client.js';
import { startReceiver, type Receiver } from '../support/webhook-receiver.js';

const PROJECT_ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
const dataDir = mkdtempSync(join(tmpdir(), 'webhooks-crash-'));
const running = new Set<ChildProcess>();
let receiver: Receiver | undefined;

/**
 * SIGKILL to the service's whole process group, as a harness or a power cut would: the gateway, the handlers,
 * the queue and the stream poller die mid-flight. (DynamoDB Local is the table, which outlives a Lambda
 * container in AWS: it runs in a group of its own and shuts down cleanly once its parent is gone.)
 */
async function killService(child: ChildProcess) {
  running.delete(child);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid!, 'SIGKILL');
  await exited;
}

/** A clean stop (SIGTERM), which ends DynamoDB Local too. */
async function stopService(child: ChildProcess) {
  running.delete(child);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

afterAll(async () => {
  for (const child of running) await stopService(child);
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** `npm start` as a process of its own (the command README gives), on this test's data directory. */
async function startService(port: number): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start-local.ts'], {
    cwd: PROJECT_ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), DATA_DIR: dataDir, DASHBOARD_URL: DASHBOARD_ORIGIN, WEBHOOK_RETRY_SCALE: '0.0001',
      // .ci/run's mark, so that its last check sees whatever this service left running.
      ...(process.env.LICENSING_CI_RUN && { LICENSING_CI_RUN: process.env.LICENSING_CI_RUN }),
    },
  });
  running.add(child);
  let output = '';
  await new Promise<void>((ready, fail) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk;
      if (output.includes('listening on')) ready();
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    child.once('exit', (code) => fail(new Error(`service exited (${code}) before it was ready:\n${output}`)));
  });
  return { child, url: `http://localhost:${port}` };
}

describe('webhook delivery after the process is killed', () => {
  it('delivers the event of a change committed just before a SIGKILL once the service runs again', async () => {
    const [servicePort, receiverPort] = [await freePort(), await freePort()];
    const first = await startService(servicePort);
    const client = new Client(first.url);
    expect((await client.post('/api/auth/register', { email: 'crash@example.com', password: 'correct horse battery' })).status).toBe(201);
    // Nobody listens at the receiver's port yet: nothing can be delivered before the kill.
    const { body: webhook } = await client.post('/api/webhooks', { name: 'Crash', url: `http://127.0.0.1:${receiverPort}/hook`, events: ['customer.created'] });
    const created = await client.post('/api/customers', { email: 'buyer@example.com', firstName: 'Ada' });
    expect(created.status).toBe(201);
    await killService(first.child);

    receiver = await startReceiver(() => 200, receiverPort);
    await startService(servicePort);
    const [request] = await receiver.waitFor(1, 60_000);
    const payload = new Webhook(webhook.secret).verify(request!.body, request!.headers as Record<string, string>) as any;
    expect(payload).toMatchObject({ type: 'customer.created', data: { id: created.body.id, email: 'buyer@example.com' } });
  }, 180_000);
});
