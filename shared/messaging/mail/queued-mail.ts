import type { TransactionEntities } from '../../platform/data/index.js';
import { newId } from '../../platform/index.js';
import { pendingMarker } from '../outbox/pending.js';
import { MAIL_TEMPLATES, type MailContent, type MailKind } from './mail-kinds.js';
import { sendOnce, type MailDeps, type MailOutcome } from './send-once.js';

/**
 * The transaction items that queue an e-mail of `kind` for `tenantId`, and mark it pending until it is forwarded to the
 * mail queue (by the table's stream, or the outbox sweep): put them in the transaction of the change that causes it,
 * and the e-mail exists exactly when the change does.
 */
export function queuedMailItems<K extends MailKind>(
  tx: Pick<TransactionEntities, 'mail' | 'outboxPending'>,
  message: { kind: K; tenantId: string; to: string; content: MailContent<K> },
  now: Date,
) {
  const mailId = newId('eml');
  const createdAt = now.toISOString();
  const ttl = Math.floor(now.getTime() / 1000) + MAIL_TEMPLATES[message.kind].retentionSeconds;
  return [
    tx.mail
      .create({ mailId, kind: message.kind, tenantId: message.tenantId, to: message.to, content: message.content, status: 'pending', attempts: 0, createdAt, ttl })
      .commit(),
    pendingMarker(tx, { kind: 'mail', itemId: mailId, tenantId: message.tenantId, createdAt, ttl }),
  ];
}

/** Sends a queued e-mail once (shared/messaging/mail/send-once.ts), rendered by its kind's template. */
export function sendQueuedMail(deps: MailDeps, mailId: string): Promise<MailOutcome> {
  const { mail } = deps.data.entities;
  return sendOnce(
    deps,
    {
      read: async () => (await mail.get({ mailId }).go({ consistent: true })).data,
      patch: () => mail.patch({ mailId }),
      // Sent or refused, the item is only its send state until its TTL: no address or name for an erasure to miss.
      settled: { to: '', content: {} },
    },
    (item) => ({ to: item.to, ...MAIL_TEMPLATES[item.kind].render(item.content as never) }),
  );
}
