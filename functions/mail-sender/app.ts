import type { SQSBatchResponse, SQSEvent, SQSRecord } from 'aws-lambda';
import { sendLicenseMail, type LicenseMailDeps } from '../../shared/mail/license-mail.js';
import type { MailMessage } from '../../shared/mail/mail-queue.js';
import { logger } from '../../shared/observability/logger.js';
import { workerApp } from '../../shared/workers/app.js';

function licenseIdOf(record: SQSRecord): string | undefined {
  try {
    const message = JSON.parse(record.body) as Partial<MailMessage>;
    return typeof message.licenseId === 'string' ? message.licenseId : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The mail sender (SQS event source with ReportBatchItemFailures): one license e-mail per message. A send that
 * failed is reported, and the message comes back after the queue's visibility timeout; one that keeps failing
 * ends in the dead-letter queue. A message naming no e-mail is dropped with an error log.
 */
export function createMailSenderHandler(deps: LicenseMailDeps) {
  return workerApp(async (event: SQSEvent): Promise<SQSBatchResponse> => {
    const failed: string[] = [];
    await Promise.all(
      event.Records.map(async (record) => {
        const licenseId = licenseIdOf(record);
        try {
          const outcome = licenseId ? await sendLicenseMail(deps, licenseId) : 'missing';
          if (outcome === 'missing') logger.error('Mail message names no license e-mail', { messageId: record.messageId, licenseId });
          else logger.info('License e-mail', { licenseId, outcome });
        } catch (error) {
          logger.error('License e-mail not sent; the queue retries it', { messageId: record.messageId, licenseId, error });
          failed.push(record.messageId);
        }
      }),
    );
    return { batchItemFailures: failed.map((itemIdentifier) => ({ itemIdentifier })) };
  });
}
