import { Entity } from 'electrodb';
import { model, primaryKey } from '../keys.js';

/**
 * Where a queued e-mail stands (shared/messaging/mail/send-once.ts): `pending` → `sending` (claimed by one sender, by a
 * conditional write on `attempts`) → `sent`, or `refused` when SES refused it for good (never tried again). Every kind
 * of queued e-mail carries these attributes.
 */
export const MAIL_SEND_STATE = {
  status: { type: ['pending', 'sending', 'sent', 'refused'] as const, required: true },
  attempts: { type: 'number', required: true, default: 0 },
  /** While `sending`: another sender may take the e-mail over after this (the first one died mid-send). */
  leaseUntil: { type: 'string' },
  sentAt: { type: 'string' },
  /** SES's id of the sent message, for tracing a bounce or complaint back to the e-mail. */
  messageId: { type: 'string' },
  refusedAt: { type: 'string' },
  /** The name of SES's refusal (`MessageRejected`…), never its message, which quotes the address. */
  refusal: { type: 'string' },
} as const;

/** The kinds of e-mail the `mail` item carries; each has its template in shared/messaging/mail/mail-kinds.ts. */
export const MAIL_KINDS = ['emailVerification', 'teamInvitation', 'renewalReminder', 'licenseTransferred', 'portalSignIn'] as const;

/**
 * An e-mail of any kind but the license e-mail (which has its own item, keyed by the license): written with its
 * pending marker in the transaction of the change that causes it, forwarded to the mail queue as every outbox item
 * (shared/messaging/outbox/), sent once by the mail sender. `content` is what the kind's template fills in, as it was when the e-mail was queued, so the sender reads
 * this one item. TTL: each kind's own (shared/messaging/mail/mail-kinds.ts).
 */
export const mailEntity = () =>
  new Entity({
    model: model('mail'),
    attributes: {
      mailId: { type: 'string', required: true },
      kind: { type: MAIL_KINDS, required: true },
      /** Whose e-mail it is (a user's own, for a verification), as its pending marker names it. */
      tenantId: { type: 'string', required: true },
      to: { type: 'string', required: true },
      content: { type: 'any', required: true },
      ...MAIL_SEND_STATE,
      createdAt: { type: 'string', required: true },
      ttl: { type: 'number', required: true },
    },
    indexes: { byId: primaryKey(['mailId']) },
  });
