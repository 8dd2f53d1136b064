import * as z from 'zod/mini';
import { queueSender } from '../../platform/aws/index.js';
import type { CoreConfig } from '../../platform/index.js';
import { PORTABILITY_WORKER_CONCURRENCY } from '../worker-concurrency.js';

/** A message of the import queue: the import to run (or to go on with, from where its cursor is). */
export const importMessageSchema = z.object({ importId: z.string() });

/** The import queue (SQS in AWS, the local stack's queue locally). */
export type ImportQueue = { send(importId: string): Promise<void> };

export function createImportQueue(config: CoreConfig): ImportQueue {
  const send = queueSender<z.infer<typeof importMessageSchema>>(config, config.imports.queueUrl, 'IMPORT_QUEUE_URL');
  return { send: (importId) => send({ importId }) };
}

/**
 * How the import queue feeds the worker, in AWS and locally. One import a message, two workers at most at a time
 * across the deployment; the worker runs until its hand-over margin before its timeout, then queues the import again
 * and returns, so an import of any size goes on in later invocations (reading its prepared rows from where it is, never
 * the file again). A crash returns the message after the visibility timeout (six times the worker's timeout, as AWS
 * advises for an SQS event source), within the 15 minutes after which an import without progress ends `failed`
 * (DECISIONS §20), and the import goes on from its cursor; after 5 receives of one message it moves to the dead-letter
 * queue (an alarm), and the import ends when its 15 minutes are up.
 */
export const IMPORT_QUEUE_SETTINGS = {
  batchSize: 1,
  workerTimeoutSeconds: 120,
  /** Time left at which the worker stops taking batches and queues the rest. */
  handOverSeconds: 30,
  visibilityTimeoutSeconds: 720,
  maxReceiveCount: 5,
  maxConcurrency: PORTABILITY_WORKER_CONCURRENCY,
  /** Import files are kept this long in the bucket (`imports/`), then expire: the import's rows are in the table. */
  fileRetentionDays: 7,
};
