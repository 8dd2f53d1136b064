import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { type MailDeps, type MailMessage, type MailOutcome, sendLicenseMail, sendQueuedMail } from '../../shared/messaging/index.js';
import { logger } from '../../shared/platform/observability/index.js';
import { workerApp } from '../../shared/platform/workers/index.js';

function messageOf(record: SQSRecord): MailMessage | undefined {
  try {
    const message = JSON.parse(record.body) as Partial<Record<'licenseId' | 'mailId', unknown>>;
    if (typeof message.licenseId === 'string') return { licenseId: message.licenseId };
    if (typeof message.mailId === 'string') return { mailId: message.mailId };
    return undefined;
  } catch {
    return undefined;
  }
}

/** Sends the e-mail a message names: a license's (keyed by the license) or a queued e-mail of another kind. */
const send = (deps: MailDeps, message: MailMessage): Promise<MailOutcome> =>
  'licenseId' in message ? sendLicenseMail(deps, message.licenseId) : sendQueuedMail(deps, message.mailId);

/**
 * The mail sender (SQS event source with ReportBatchItemFailures): one e-mail per message. A send that failed is
 * reported, and the message comes back after the queue's visibility timeout; one that keeps failing ends in the
 * dead-letter queue. An e-mail SES refuses for good is recorded and counted, not retried (shared/messaging/mail/send-once.ts).
 * A message naming no e-mail is dropped with an error log.
 */
export function createMailSenderHandler(deps: MailDeps) {
  return workerApp(async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const failed: string[] = [];
    await Promise.all(
      event.Records.map(async (record) => {
        const message = messageOf(record);
        try {
          const outcome = message ? await send(deps, message) : 'missing';
          if (outcome === 'missing') logger.error('Mail message names no queued e-mail', { messageId: record.messageId, ...message });
          else if (outcome === 'refused') logger.warn('E-mail refused by SES for good: recorded, not tried again', { messageId: record.messageId, ...message });
          else logger.info('E-mail', { ...message, outcome });
        } catch (error) {
          logger.error('E-mail not sent; the queue retries it', { messageId: record.messageId, ...message, error });
          failed.push(record.messageId);
        }
      }),
    );
    return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
  });
}
