import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../infra/local/ports.js';
import { loadConfig } from '../../../shared/platform/config.js';
import { createLoadedDeps } from '../../../shared/platform/runtime.js';
import { SECRET_ACCESS } from '../../../shared/platform/secrets/secret-access.js';
import { createSecretBox } from '../../../shared/platform/secrets/secret-box.js';
import { attemptDelivery } from '../../../shared/messaging/webhooks/dispatch.js';
import { startLocalStack, type LocalStack } from '../../../infra/local/stack.js';
import { createDataService } from '../../../shared/platform/data/service.js';
import { outboxEvent } from '../../../shared/messaging/events/outbox.js';
import { firstDeliveryId } from '../../../shared/messaging/webhooks/deliveries.js';
import { Client, DASHBOARD_ORIGIN } from '../../support/client.js';
import { eventually, startReceiver, type Receiver } from '../../support/webhook-receiver.js';
import { verifyAddress } from '../../support/mail.js';
import * as dataModel from '../../../shared/platform/data/model.js';

// A stack of this file's own, on a data directory, so that it can be stopped and started again.
const dataDir = mkdtempSync(join(tmpdir(), 'webhooks-restart-'));
let stack: LocalStack | undefined;
let receiver: Receiver | undefined;
afterAll(async () => {
  await receiver?.close();
  await stack?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

// The dashboard's origin, which the client sends: without it the stack takes it from whatever another file left in the
// process's environment, and alone refuses the registration.
const start = () => startLocalStack({ port: 0, dataDir, lightJvm: true, env: { WEBHOOK_RETRY_SCALE: '0.0001', DASHBOARD_URL: DASHBOARD_ORIGIN } });
const local = { region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } };

describe('webhook delivery across a restart', () => {
  it('delivers an event recorded just before the service stopped once it runs again, exactly once', async () => {
    stack = await start();
    const client = new Client(stack.url);
    const { body: registered } = await client.post('/api/auth/register', { email: 'restart@example.com', password: 'correct horse battery' });
    // A webhook needs a verified address (DECISIONS §20).
    await verifyAddress('restart@example.com', stack.url);
    // The receiver is down until after the restart: whatever the stopping service got to, it could not deliver.
    const receiverPort = await freePort();
    const { body: webhook } = await client.post('/api/webhooks', {
      name: 'Restart',
      url: `http://127.0.0.1:${receiverPort}/hook`,
      events: ['customer.created'],
    });

    const data = createDataService(DynamoDBDocumentClient.from(new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT, ...local })), process.env.TABLE_NAME!, undefined, dataModel);
    const outcome = await data.transaction
      .write((tx) => outboxEvent(tx, { tenantId: registered.user.id, type: 'customer.created', data: { id: 'cus_restart' }, now: new Date() }))
      .go();
    expect(outcome.canceled).toBe(false);
    await stack.stop();
    stack = undefined;

    stack = await start();
    receiver = await startReceiver(() => 200, receiverPort);
    const [request] = await receiver.waitFor(1, 30_000);
    const payload = new Webhook(webhook.secret).verify(request!.body, request!.headers as Record<string, string>) as any;
    expect(payload).toMatchObject({ type: 'customer.created', data: { id: 'cus_restart' } });

    // A second copy of the delivery's message (SQS delivers at least once) sends nothing more.
    const sqs = new SQSClient({ endpoint: process.env.SQS_ENDPOINT, ...local });
    const deliveryId = firstDeliveryId(payload.id, webhook.id);
    await sqs.send(new SendMessageCommand({ QueueUrl: process.env.QUEUE_URL, MessageBody: JSON.stringify({ deliveryId }) }));
    const gateway = new Client(stack.url);
    await eventually(async () => ((await gateway.get('/_local/webhook-queue')).body.messages === 0 ? true : undefined));
    expect(receiver.requests).toHaveLength(1);
  }, 120_000);
});

describe('a copy of a delivery\'s message', () => {
  it('sends nothing while another copy\'s attempt is under way, and nothing once it succeeded', async () => {
    stack ??= await start();
    const client = new Client(stack.url);
    expect((await client.post('/api/auth/register', { email: 'copies@example.com', password: 'correct horse battery' })).status).toBe(201);
    await verifyAddress('copies@example.com', stack.url);
    // A receiver that holds its answer: the stack's dispatcher has claimed the attempt and is still sending it.
    const received: string[] = [];
    const held: ServerResponse[] = [];
    const slow = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        received.push(body);
        held.push(res);
      });
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(slow.address() as AddressInfo).port}/hook`;
      const { body: webhook } = await client.post('/api/webhooks', { name: 'Slow', url, events: ['customer.created'] });
      expect((await client.post('/api/customers', { email: 'copied@example.com' })).status).toBe(201);
      await eventually(async () => (received.length === 1 ? true : undefined));
      const deliveryId = firstDeliveryId(JSON.parse(received[0]!).id, webhook.id);

      // The copy, handled as the dispatcher handles a message, while the first attempt waits for its answer.
      const config = loadConfig();
      const deps = { ...(await createLoadedDeps(config, 'webhookWorker')), secrets: createSecretBox(config, SECRET_ACCESS.webhookDispatcher) };
      expect(await attemptDelivery(deps, deliveryId)).toMatchObject({ kind: 'retry' });
      expect(received).toHaveLength(1);

      for (const res of held) res.end('ok');
      await eventually(async () => {
        const { items } = (await client.get(`/api/webhooks/${webhook.id}/deliveries`)).body;
        return items?.[0]?.status === 'succeeded' ? true : undefined;
      });
      expect(await attemptDelivery(deps, deliveryId)).toEqual({ kind: 'done' });
      expect(received).toHaveLength(1);
    } finally {
      slow.closeAllConnections();
      await new Promise((resolve) => slow.close(resolve));
    }
  }, 60_000);
});
