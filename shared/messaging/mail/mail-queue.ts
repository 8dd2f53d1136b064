import { queueSender } from '../../platform/aws/index.js';
import type { CoreConfig } from '../../platform/index.js';

/** What a mail queue message says: which queued e-mail to send. Everything else is read from the table. */
export type MailMessage = { licenseId: string } | { mailId: string };

/** The mail queue (SQS in AWS, the local stack's queue locally). */
export type MailQueue = { enqueue(message: MailMessage): Promise<void> };

export function createMailQueue(config: CoreConfig): MailQueue {
  const send = queueSender<MailMessage>(config, config.mail.queueUrl, 'MAIL_QUEUE_URL');
  return { enqueue: send };
}

/**
 * How the mail queue feeds the sender, in AWS and locally alike. A failed send comes back after the visibility
 * timeout; after `maxReceiveCount` receives (about an hour of SES refusing) the message moves to the dead-letter
 * queue, which raises an alarm and from which it can be redriven once SES is fixed.
 */
export const MAIL_QUEUE_SETTINGS = {
  senderTimeoutSeconds: 30,
  visibilityTimeoutSeconds: 120,
  batchSize: 10,
  maxReceiveCount: 30,
  /** Concurrent senders at most: a few a second is what a vendor sells, and a new account may run only 10 functions at once. */
  maxConcurrency: 2,
};
