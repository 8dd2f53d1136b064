import * as z from 'zod/mini';
import { queueSender } from '../../platform/aws/index.js';
import type { CoreConfig } from '../../platform/index.js';

/** A message of the import queue: the import to run (or to go on with, from where its cursor is). */
export const importMessageSchema = z.object({ importId: z.string() });

/** The import queue (SQS in AWS, the local stack's queue locally). */
export type ImportQueue = { send(importId: string): Promise<void> };

export function createImportQueue(config: CoreConfig): ImportQueue {
  const send = queueSender<z.infer<typeof importMessageSchema>>(config, config.imports.queueUrl, 'IMPORT_QUEUE_URL');
  return { send: (importId) => send({ importId }) };
}

/**
 * How the import queue feeds the worker, in AWS and locally. One import a message; the worker runs until a minute
 * before its timeout, then queues the import again and returns, so an import of any size goes on in later
 * invocations. A crash returns the message after the visibility timeout (six times the worker's timeout, as AWS
 * advises for an SQS event source), and the import goes on from its cursor; after 5 receives of one message it moves
 * to the dead-letter queue (an alarm).
 */
export const IMPORT_QUEUE_SETTINGS = {
  batchSize: 1,
  workerTimeoutSeconds: 300,
  /** Time left at which the worker stops taking batches and queues the rest. */
  handOverSeconds: 60,
  visibilityTimeoutSeconds: 1800,
  maxReceiveCount: 5,
  /**
   * Workers at once at most (the SQS event source's `maxConcurrency`, whose least is 2): an import writes the table as
   * fast as it can, and a new account may run only 10 functions at once; a third import waits in the queue.
   */
  maxConcurrency: 2,
  /** Import files are kept this long in the bucket (`imports/`), then expire: the import's rows are in the table. */
  fileRetentionDays: 7,
};
