import type { TransactionEntities } from '../data/service.js';
import { newId } from '../ids.js';
import { MAIL_TEMPLATES, type MailContent, type MailKind } from './mail-kinds.js';
import { sendOnce, type MailDeps, type MailOutcome } from './send-once.js';

/**
 * The transaction item that queues an e-mail of `kind`: put it in the transaction of the change that causes it, and
 * the e-mail exists exactly when the change does. The table's stream carries it to the mail queue.
 */
export function queuedMailItem<K extends MailKind>(mail: TransactionEntities['mail'], message: { kind: K; to: string; content: MailContent<K> }, now: Date) {
  return mail
    .create({
      mailId: newId('eml'),
      kind: message.kind,
      to: message.to,
      content: message.content,
      status: 'pending',
      attempts: 0,
      createdAt: now.toISOString(),
      ttl: Math.floor(now.getTime() / 1000) + MAIL_TEMPLATES[message.kind].retentionSeconds,
    })
    .commit();
}

/** Sends a queued e-mail once (shared/mail/send-once.ts), rendered by its kind's template. */
export function sendQueuedMail(deps: MailDeps, mailId: string): Promise<MailOutcome> {
  const { mail } = deps.data.entities;
  return sendOnce(
    deps,
    { read: async () => (await mail.get({ mailId }).go({ consistent: true })).data, patch: () => mail.patch({ mailId }) },
    (item) => ({ to: item.to, ...MAIL_TEMPLATES[item.kind].render(item.content as never) }),
  );
}
