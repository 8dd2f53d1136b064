import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startLocalQueue, type LocalQueue } from '../../../infra/local/queue.js';
import { checkHealth } from '../../../shared/platform/health/health-check.js';
import { queueDepth } from '../../../shared/platform/health/queue-depth.js';
import { createDownloadLinks } from '../../../shared/platform/storage/download-links.js';

/**
 * The health check against the local stack, whose gateway plays the front door (its origin secret, `/releases/…`
 * passed to the S3 stand-in after checking the presigned signature as S3 does), and against a queue of its own.
 */
const links = (frontDoor: string, secretAccessKey = 'local') =>
  createDownloadLinks(
    { region: 'us-east-1', bucketName: inject('releaseBucket'), endpoints: { s3: inject('s3Endpoint') }, downloadLinks: { releaseFilesUrl: frontDoor } },
    async () => ({ accessKeyId: 'local', secretAccessKey }),
  );

let queue: LocalQueue;
let broken: { url: string; close: () => Promise<void> };
beforeAll(async () => {
  queue = await startLocalQueue({ name: 'health-check-test', deadLetterName: 'health-check-test-dlq', visibilityTimeoutSeconds: 30, maxReceiveCount: 1, batchSize: 1, concurrency: 1 });
  // A front door whose origin refuses it, as after a rotation gone wrong: every path answers 403.
  const server = createServer((_req, res) => void res.writeHead(403).end('{"error":"Requests must come through the service\'s public address"}'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  broken = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
});
afterAll(async () => {
  await queue.stop();
  await broken.close();
});

const check = (frontDoor: Parameters<typeof checkHealth>[0]['frontDoor']) =>
  checkHealth({ frontDoor, deadLetterQueues: { 'webhook-dead-letters': { url: queue.deadLetterQueueUrl, about: 'Webhook deliveries gave up.' } }, messagesIn: queueDepth({ region: 'us-east-1', endpoints: { sqs: queue.endpoint } }), fetch });

describe('the health check', () => {
  it('finds nothing wrong with a working front door and empty dead-letter queues', async () => {
    const frontDoor = inject('baseUrl');
    expect(await check({ url: frontDoor, links: links(frontDoor) })).toEqual([]);
    // Without a front door (dashboard=false) only the queues are looked at.
    expect(await check(undefined)).toEqual([]);
  });

  it('reports a front door whose origin refuses it, and one through which S3 refuses the presigned release URL', async () => {
    expect(await check({ url: broken.url, links: links(broken.url) })).toEqual([
      `The front door's /health (${broken.url}) answered 403, not 200`,
      'A presigned release URL through the front door answered 403, not 404',
    ]);
    const frontDoor = inject('baseUrl');
    expect(await check({ url: frontDoor, links: links(frontDoor, 'not-the-signing-key') })).toEqual(['A presigned release URL through the front door answered 403, not 404']);
  });

  it('reports a dead-letter queue that holds a message, by what it holds', async () => {
    const send = (body: string) =>
      fetch(queue.endpoint, {
        method: 'POST',
        headers: { 'x-amz-target': 'AmazonSQS.SendMessage', 'content-type': 'application/x-amz-json-1.0' },
        body: JSON.stringify({ QueueUrl: queue.deadLetterQueueUrl, MessageBody: body }),
      });
    await send('{"deliveryId":"whd_1"}');
    await send('{"deliveryId":"whd_2"}');
    expect(await check(undefined)).toEqual(['webhook-dead-letters: 2 messages. Webhook deliveries gave up.']);
  });
});
