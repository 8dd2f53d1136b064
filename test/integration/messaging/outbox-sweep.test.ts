import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import { createFanOutHandler } from '../../../functions/outbox-fanout/app.js';
import { matchesFilter, OUTBOX_INSERT_FILTER } from '../../../functions/outbox-fanout/outbox-filter.js';
import { OUTBOX_STREAM_SETTINGS } from '../../../functions/outbox-fanout/stream-settings.js';
import { createMailSenderHandler } from '../../../functions/mail-sender/app.js';
import { lambdaContext } from '../../../infra/local/lambda-context.js';
import { startMailServer, type MailServer } from '../../../infra/local/mail-server.js';
import { freePort } from '../../../infra/local/ports.js';
import { startLocalQueue, startSqsEndpoint, type LocalQueue } from '../../../infra/local/queue.js';
import { startStreamPoller, type DiscardedBatch } from '../../../infra/local/stream-poller.js';
import { loadConfig } from '../../../shared/platform/config.js';
import { outboxEvent } from '../../../shared/messaging/events/outbox.js';
import { transact } from '../../../shared/platform/data/writes.js';
import { newId } from '../../../shared/platform/ids.js';
import { generateLicenseKey } from '../../../shared/licensing/licenses/license-key.js';
import { licenseMailItem } from '../../../shared/messaging/mail/license-mail-item.js';
import { queuedMailItems } from '../../../shared/messaging/mail/queued-mail.js';
import { createMailQueue, MAIL_QUEUE_SETTINGS, type MailQueue } from '../../../shared/messaging/mail/mail-queue.js';
import { createMailer } from '../../../shared/messaging/mail/mailer.js';
import type { OutboxQueues } from '../../../shared/messaging/outbox/forwarders.js';
import { OUTBOX_SWEEP_GRACE_MS, sweepOutbox } from '../../../shared/messaging/outbox/sweep.js';
import { systemClock } from '../../../shared/platform/runtime.js';
import { createDeliveryQueue } from '../../../shared/messaging/webhooks/delivery-queue.js';
import { localData, tableOfItsOwn } from '../../support/table.js';

/**
 * The outbox beyond the stream: a license e-mail whose stream record the fan-out cannot forward (the mail queue
 * refuses it) is given up by the stream after its retries, as in AWS, without holding up another tenant's e-mail
 * behind it; the sweep forwards it once the fault is gone, and the buyer gets one e-mail. The outbox pipeline as the
 * local stack runs it (stream poller with the deployed settings, fan-out, mail queue, mail sender, SES stand-in) on a
 * table of its own, whose stream no other fan-out reads; the mail queue's sender refuses one e-mail 11 times.
 */
const REFUSALS = OUTBOX_STREAM_SETTINGS.retryAttempts + 1;
let tableName: string;
let ses: MailServer;
let mailQueue: LocalQueue;
let poller: { stop: () => Promise<void> };
/** The queues the fan-out and the sweep forward to. */
let queues: OutboxQueues;
const discarded: DiscardedBatch[] = [];
/** What the fan-out and the sweep put on the mail queue, in order, with how often the poisoned e-mail had been refused by then. */
const enqueued: { licenseId: string; refusedSoFar: number }[] = [];
let poisoned = '';
let refused = 0;

beforeAll(async () => {
  tableName = await tableOfItsOwn();
  ses = await startMailServer({ port: await freePort() });
  mailQueue = await startLocalQueue({
    name: 'outbox-sweep-mail',
    deadLetterName: 'outbox-sweep-mail-dlq',
    visibilityTimeoutSeconds: MAIL_QUEUE_SETTINGS.visibilityTimeoutSeconds,
    maxReceiveCount: MAIL_QUEUE_SETTINGS.maxReceiveCount,
    batchSize: MAIL_QUEUE_SETTINGS.batchSize,
    concurrency: 2,
  });
  const config = loadConfig({
    RUNTIME: 'local', TABLE_NAME: tableName, MAIL_QUEUE_URL: mailQueue.queueUrl, SQS_ENDPOINT: mailQueue.endpoint, SES_ENDPOINT: ses.endpoint, MAIL_FROM: 'sales@vendor.example',
  }, ['mail']);
  mailQueue.consume((event) => createMailSenderHandler({ data: localData('mailSender', tableName), clock: systemClock, mailer: createMailer(config) })(event, lambdaContext('mailSender')));
  const sqs = createMailQueue(config);
  const refusing: MailQueue = {
    async enqueue(message) {
      const licenseId = 'licenseId' in message ? message.licenseId : '';
      if (licenseId === poisoned && refused < REFUSALS) {
        refused++;
        throw new Error('SendMessage refused');
      }
      enqueued.push({ licenseId, refusedSoFar: refused });
      await sqs.enqueue(message);
    },
  };
  queues = { deliveries: createDeliveryQueue(config), mail: refusing };
  const fanOut = createFanOutHandler({ data: localData('webhookWorker', tableName), clock: systemClock }, queues);
  poller = await startStreamPoller({
    endpoint: inject('dynamoEndpoint'),
    tableName,
    filter: (record) => matchesFilter(OUTBOX_INSERT_FILTER, record),
    handler: (event) => fanOut(event, lambdaContext('outboxFanOut')),
    ...OUTBOX_STREAM_SETTINGS,
    retryDelayMs: 100,
    onDiscard: (batch) => discarded.push(batch),
  });
});

afterAll(async () => {
  await poller?.stop();
  await mailQueue?.stop();
  await ses?.stop();
});

/** A license e-mail as a purchase writes it, in its own transaction (so its own stream record). */
async function purchaseMail(buyer: string, table = tableName) {
  const now = new Date();
  const license = {
    licenseId: newId('lic'), licenseKey: generateLicenseKey('SWEEP-'), tenantId: newId('usr'), productId: newId('prd'), customerEmail: buyer,
    status: 'active' as const, seats: 1, activatedCount: 0, createdAt: now.toISOString(), updatedAt: now.toISOString(),
  };
  const outcome = await transact(localData('stripeWebhook', table), (tx) => ({
    mail: licenseMailItem(tx, { license, productName: 'Sweep Plugin', renews: false, seller: { name: 'Acme' } }, now),
  }));
  expect(outcome.committed).toBe(true);
  return license;
}

const emailsTo = (buyer: string) => ses.sent().filter((email) => email.to.includes(buyer));
const sweepAt = (now: Date) => sweepOutbox({ data: localData('outboxSweep', tableName), clock: { now: () => now }, queues });

describe('outbox sweep', () => {
  it('delivers a license e-mail once after the mail queue refused it 11 times and the stream gave it up, holding up no other tenant', async () => {
    // The fan-out logs each record it fails: expected here.
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const first = await purchaseMail('poisoned@example.com');
    poisoned = first.licenseId;
    const second = await purchaseMail('other-tenant@example.com');

    // The other tenant's e-mail, behind the refused one in the stream, went while the refused one was still retried.
    await expect.poll(() => emailsTo('other-tenant@example.com').length, { timeout: 20_000, interval: 100 }).toBe(1);
    expect(enqueued.find((e) => e.licenseId === second.licenseId)!.refusedSoFar).toBeLessThan(REFUSALS);

    // The stream gives the record up after its retries, as the event source mapping does in AWS.
    await expect.poll(() => discarded.length, { timeout: 20_000, interval: 100 }).toBe(1);
    expect(discarded[0]).toMatchObject({ condition: 'RetryAttemptsExhausted', approximateInvokeCount: REFUSALS });
    expect(refused).toBe(REFUSALS);
    expect(emailsTo('poisoned@example.com')).toEqual([]);
    expect(logged).toHaveBeenCalled();
    logged.mockRestore();

    // The fault has cleared. Within its grace the sweep leaves the item to the stream; after it, forwards it once.
    expect(await sweepAt(new Date())).toEqual({ forwarded: 0, failures: [] });
    const later = new Date(Date.now() + OUTBOX_SWEEP_GRACE_MS + 60_000);
    expect(await sweepAt(later)).toEqual({ forwarded: 1, failures: [] });
    await expect.poll(() => emailsTo('poisoned@example.com').length, { timeout: 20_000, interval: 100 }).toBe(1);
    expect(emailsTo('poisoned@example.com')[0]!.text).toContain(first.licenseKey);

    // Forwarded is marked: a later sweep finds nothing, and the buyer still has one e-mail once the queue is empty.
    expect(await sweepAt(later)).toEqual({ forwarded: 0, failures: [] });
    await expect.poll(() => mailQueue.state().messages, { timeout: 20_000, interval: 100 }).toBe(0);
    expect(emailsTo('poisoned@example.com')).toHaveLength(1);
    expect(emailsTo('other-tenant@example.com')).toHaveLength(1);
  });

  it('forwards what is pending of every kind, and puts off an item it cannot forward without holding up the others', async () => {
    // A table no stream poller reads: everything written is left to the sweep.
    const table = await tableOfItsOwn();
    const sqsEndpoint = await startSqsEndpoint();
    const queue = (name: string) => startLocalQueue({ name, deadLetterName: `${name}-dlq`, visibilityTimeoutSeconds: 60, maxReceiveCount: 3, batchSize: 10, concurrency: 1, sqsEndpoint });
    const deliveries = await queue('outbox-sweep-deliveries');
    const mail = await queue('outbox-sweep-mail-only');
    try {
      const config = loadConfig({ RUNTIME: 'local', TABLE_NAME: table, QUEUE_URL: deliveries.queueUrl, MAIL_QUEUE_URL: mail.queueUrl, SQS_ENDPOINT: sqsEndpoint.url });
      const mailQueue = createMailQueue(config);
      let faulty = true;
      const stuck = await purchaseMail('stuck@example.com', table);
      await purchaseMail('fine@example.com', table);
      const tenantId = newId('usr');
      const now = new Date().toISOString();
      const all = localData('all', table);
      await all.entities.webhook
        .create({ webhookId: newId('whk'), tenantId, name: 'Hook', url: 'https://hooks.example/x', secret: 'whsec_c2VjcmV0', events: ['customer.created'], enabled: true, createdAt: now, updatedAt: now })
        .go();
      expect((await transact(all, (tx) => ({ event: outboxEvent(tx, { tenantId, type: 'customer.created', data: { id: 'cus_1' }, now: new Date() }) }))).committed).toBe(true);
      const verification = { name: 'New', email: 'new@example.com', link: 'https://licensing.example/api/auth/verify-email?token=x', validHours: 24 };
      const queued = await transact(all, (tx) => ({
        mail: queuedMailItems(tx, { kind: 'emailVerification', tenantId, to: verification.email, content: verification }, new Date()),
      }));
      expect(queued.committed).toBe(true);

      const sweep = (at: Date) =>
        sweepOutbox({
          data: localData('outboxSweep', table),
          clock: { now: () => at },
          queues: {
            deliveries: createDeliveryQueue(config),
            mail: {
              enqueue: (message) =>
                faulty && 'licenseId' in message && message.licenseId === stuck.licenseId ? Promise.reject(new Error('SendMessage refused')) : mailQueue.enqueue(message),
            },
          },
        });
      const later = new Date(Date.now() + OUTBOX_SWEEP_GRACE_MS + 60_000);
      const first = await sweep(later);
      expect(first.forwarded).toBe(3);
      expect(first.failures).toEqual([expect.objectContaining({ kind: 'licenseMail', itemId: stuck.licenseId, tenantId: stuck.tenantId })]);
      expect(deliveries.state().messages).toBe(1);
      expect(mail.state().messages).toBe(2);

      // Put off: the next runs leave it until its time has come, whatever else they do.
      expect(await sweep(later)).toEqual({ forwarded: 0, failures: [] });
      faulty = false;
      expect(await sweep(new Date(later.getTime() + OUTBOX_SWEEP_GRACE_MS + 1000))).toEqual({ forwarded: 1, failures: [] });
      expect(mail.state().messages).toBe(3);
    } finally {
      await deliveries.stop();
      await mail.stop();
      await sqsEndpoint.stop();
    }
  });
});
