import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../infra/local/ports.js';
import { Client, DASHBOARD_ORIGIN } from '../../support/client.js';
import { startServiceProcess, stopServiceProcess } from '../../support/service-process.js';
import { startReceiver, type Receiver } from '../../support/webhook-receiver.js';
import { verifyAddress } from '../../support/mail.js';

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

afterAll(async () => {
  for (const child of running) await stopServiceProcess(child);
  await receiver?.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** `npm start` on this test's data directory. */
async function startService(port: number) {
  const service = await startServiceProcess({ PORT: String(port), DATA_DIR: dataDir, DASHBOARD_URL: DASHBOARD_ORIGIN, WEBHOOK_RETRY_SCALE: '0.0001' });
  running.add(service.child);
  return service;
}

describe('webhook delivery after the process is killed', () => {
  it('delivers the event of a change committed just before a SIGKILL once the service runs again', async () => {
    const [servicePort, receiverPort] = [await freePort(), await freePort()];
    const first = await startService(servicePort);
    const client = new Client(first.url);
    expect((await client.post('/api/auth/register', { email: 'crash@example.com', password: 'correct horse battery' })).status).toBe(201);
    // A webhook needs a verified address (DECISIONS §20).
    await verifyAddress('crash@example.com', first.url);
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
