import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../infra/local/ports.js';
import { Client, DASHBOARD_ORIGIN } from '../support/client.js';
import { eventually, startReceiver, type Receiver } from '../support/webhook-receiver.js';

const PROJECT_ROOT = resolve(fileURLToPath(import.meta.url), '../../..');
const dataDir = mkdtempSync(join(tmpdir(), 'webhooks-crash-'));
const running = new Set<ChildProcess>();
let receiver: Receiver | undefined;

/**
 * SIGKILL to the service's process: the gateway, the handlers, the queue and the stream poller die mid-flight,
 * as a Lambda container can. The table outlives it, as it does in AWS: DynamoDB Local, the service's child, is
 * then stopped gracefully, because it is not crash-safe itself (killed with an SQLite transaction open, it rolls
 * back writes it had already acknowledged), which is a property of the stand-in, not of DynamoDB.
 */
async function killService(child: ChildProcess) {
  running.delete(child);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
  await stopProcessGroup(child.pid!);
}

/** SIGTERM to what is left of the service's process group (DynamoDB Local), and waits until it is gone. */
async function stopProcessGroup(groupId: number) {
  const signal = (name: NodeJS.Signals | 0) => {
    try {
      process.kill(-groupId, name);
      return true;
    } catch {
      return false;
    }
  };
  signal('SIGTERM');
  await eventually(async () => (signal(0) ? undefined : true), 30_000);
}

afterAll(async () => {
  for (const child of running) await killService(child);
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** `npm start` as a process of its own (the command README gives), on this test's data directory. */
async function startService(port: number): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start-local.ts'], {
    cwd: PROJECT_ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { PATH: process.env.PATH, HOME: process.env.HOME, PORT: String(port), DATA_DIR: dataDir, DASHBOARD_URL: DASHBOARD_ORIGIN, WEBHOOK_RETRY_SCALE: '0.0001' },
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
