import { type ConditionOperations, writeItem } from '../../platform/data/index.js';
import type { Deps } from '../../platform/index.js';
import { metrics } from '../../platform/observability/index.js';
import { permanentRefusal, type Mailer, type OutgoingMail } from './mailer.js';

export type MailDeps = Pick<Deps, 'data' | 'clock'> & { mailer: Mailer };

/**
 * How long a sender holds an e-mail it claimed: past the sender's timeout, so that only a sender that died
 * mid-send loses it; another one then takes it over when the queue hands the message out again.
 */
export const SEND_LEASE_SECONDS = 60;

/**
 * What became of one queue message: sent now, refused for good by SES now, or nothing to do (already sent or
 * refused, being sent, no such e-mail).
 */
export type MailOutcome = 'sent' | 'sent-before' | 'refused' | 'refused-before' | 'in-progress' | 'missing';

/** The send state every queued e-mail's item carries (MAIL_SEND_STATE in shared/platform/data/entities/mail.ts). */
type SendState = { status: 'pending' | 'sending' | 'sent' | 'refused'; attempts: number; leaseUntil?: string };
type SendStateChange = Partial<SendState> & { sentAt?: string; messageId?: string; refusedAt?: string; refusal?: string } & Partial<Settled>;
/** Fields an e-mail's item may empty once the e-mail is sent or refused: its address and what its template filled in. */
type Settled = { to: string; content: Record<string, never> };

/** The part of an ElectroDB patch of a queued e-mail's item that sending uses: `set` first, then the rest. */
interface MailPatch {
  set(values: SendStateChange): MailPatchChain;
}
interface MailPatchChain extends MailPatch {
  remove(attributes: 'leaseUntil'[]): MailPatchChain;
  // ElectroDB's attribute references are opaque objects of per-entity types.
  where(condition: (attributes: { status: any; attempts: any }, operations: ConditionOperations) => string): MailPatchChain;
  go(): Promise<unknown>;
}

/** One queued e-mail's item, of whichever entity holds its kind: read strongly consistently, and patched. */
export type QueuedMail<Item extends SendState> = {
  read: () => Promise<Item | null | undefined>;
  patch: () => MailPatch;
  /** Written with the final state: what the item keeps no longer (a customer's erasure cannot find it by address). */
  settled?: Settled;
};

/**
 * Sends a queued e-mail once, however many copies of its queue message arrive. Each attempt is claimed by a
 * conditional write on the attempt count, so two copies handled at once make one send; a sent e-mail is never
 * sent again. A failed send lets the claim go and throws, and the queue brings the message back; one SES refuses
 * for good (`permanentRefusal`) is recorded `refused` and counted (`MailRefused`), and never tried again: retried,
 * it would only reach the dead-letter queue an hour later and page for what no one can fix.
 * The one window left is SES accepting the e-mail and the sender dying before it records that: the e-mail goes
 * again once the lease is over (docs/deploy.md).
 */
export async function sendOnce<Item extends SendState>(
  deps: MailDeps,
  queued: QueuedMail<Item>,
  compose: (item: Item) => OutgoingMail,
): Promise<MailOutcome> {
  const mail = await queued.read();
  if (!mail) return 'missing';
  if (mail.status === 'sent') return 'sent-before';
  if (mail.status === 'refused') return 'refused-before';
  const now = deps.clock.now();
  // Another sender holds it; should it fail, its own message comes back and carries the e-mail on.
  if (mail.status === 'sending' && mail.leaseUntil && Date.parse(mail.leaseUntil) > now.getTime()) return 'in-progress';

  const attempt = mail.attempts + 1;
  const claimed = await writeItem(() =>
    queued
      .patch()
      .set({ status: 'sending', attempts: attempt, leaseUntil: new Date(now.getTime() + SEND_LEASE_SECONDS * 1000).toISOString() })
      .where(({ status, attempts }, { eq }) => `${eq(attempts, mail.attempts)} AND NOT ${eq(status, 'sent')}`)
      .go(),
  );
  if (!claimed.written) return 'in-progress';

  let messageId: string;
  try {
    ({ messageId } = await deps.mailer.send(compose(mail)));
  } catch (error) {
    const refusal = permanentRefusal(error);
    // Let the claim go at once (so the message's next delivery need not wait out the lease), or record the refusal.
    await writeItem(() =>
      queued
        .patch()
        .set(refusal ? { status: 'refused', refusedAt: deps.clock.now().toISOString(), refusal, ...queued.settled } : { status: 'pending' })
        .remove(['leaseUntil'])
        .where(({ status, attempts }, { eq }) => `${eq(status, 'sending')} AND ${eq(attempts, attempt)}`)
        .go(),
    );
    if (!refusal) throw error;
    metrics.mailRefused(refusal);
    return 'refused';
  }
  await writeItem(() => queued.patch().set({ status: 'sent', sentAt: deps.clock.now().toISOString(), messageId, ...queued.settled }).remove(['leaseUntil']).go());
  return 'sent';
}
