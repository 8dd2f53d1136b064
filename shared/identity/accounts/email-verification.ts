import { transact, type TransactionEntities, writeItem } from '../../platform/data/index.js';
import { BadRequestError, type Deps, NotFoundError, randomBase32, sha256Hex } from '../../platform/index.js';
import { queuedMailItems } from '../../messaging/index.js';

type VerificationDeps = Pick<Deps, 'data' | 'clock'>;

/** A verification link works for 24 hours (DECISIONS §13), once. */
const LINK_LIFETIME_HOURS = 24;

export const INVALID_TOKEN = 'Invalid or expired token';
export const ALREADY_VERIFIED = 'Email is already verified';

/** A token as `verificationSlots` makes it: 20 random bytes, base32. Any other string was never one of ours. */
const TOKEN_SHAPE = /^[a-z2-7]{32}$/;

/**
 * The two transaction items that send a user a link confirming their address: the token's item (its SHA-256 only) and
 * the e-mail holding the link `{baseUrl}/api/auth/verify-email?token=…`. Put them in the transaction of the change that
 * calls for the e-mail (registering, asking again), so that the link exists exactly when the e-mail does.
 */
export function verificationSlots(tx: TransactionEntities, user: { userId: string; email: string; name: string }, baseUrl: string, now: Date) {
  const token = randomBase32(20);
  const link = `${baseUrl}/api/auth/verify-email?token=${token}`;
  return {
    verification: tx.emailVerification
      .create({
        tokenHash: sha256Hex(token),
        userId: user.userId,
        email: user.email,
        createdAt: now.toISOString(),
        ttl: Math.floor(now.getTime() / 1000) + LINK_LIFETIME_HOURS * 3600,
      })
      .commit(),
    mail: queuedMailItems(
      tx,
      { kind: 'emailVerification', tenantId: user.userId, to: user.email, content: { name: user.name, email: user.email, link, validHours: LINK_LIFETIME_HOURS } },
      now,
    ),
  };
}

/**
 * Marks the address of a link's user verified. The link is taken by one conditional delete that holds only before its
 * 24 hours are up (DynamoDB's TTL removes items late), so it works once; and only while the user's address is still
 * the one it was sent to. A bad, used or expired token is 400 `Invalid or expired token`.
 */
export async function verifyEmail(deps: VerificationDeps, token: string | undefined): Promise<void> {
  if (!token || !TOKEN_SHAPE.test(token)) throw new BadRequestError(INVALID_TOKEN);
  const now = deps.clock.now();
  const taken = await writeItem(() =>
    deps.data.entities.emailVerification
      .remove({ tokenHash: sha256Hex(token) })
      .where(({ ttl }, { gt }) => gt(ttl, Math.floor(now.getTime() / 1000)))
      .go({ response: 'all_old' }),
  );
  const link = taken.written ? taken.value.data : undefined;
  if (!link) throw new BadRequestError(INVALID_TOKEN);
  const verified = await writeItem(() =>
    deps.data.entities.user
      .patch({ userId: link.userId })
      .set({ emailVerified: true, updatedAt: now.toISOString() })
      .where(({ email }, { eq }) => eq(email, link.email))
      .go({ response: 'none' }),
  );
  if (!verified.written) throw new BadRequestError(INVALID_TOKEN);
}

/** Sends a user a fresh link (earlier ones keep working until used or expired); 400 once the address is verified. */
export async function resendVerification(deps: VerificationDeps, userId: string, baseUrl: string): Promise<void> {
  const { data: user } = await deps.data.entities.user.get({ userId }).go({ consistent: true });
  if (user?.emailVerified) throw new BadRequestError(ALREADY_VERIFIED);
  if (!user) throw new NotFoundError('User not found');
  // Held by the write: an address verified since the read gets no e-mail.
  const outcome = await transact(deps.data, (tx) => ({
    ...verificationSlots(tx, user, baseUrl, deps.clock.now()),
    unverified: tx.user
      .check({ userId })
      .where(({ email, emailVerified }, { eq, notExists }) => `${eq(email, user.email)} AND (${notExists(emailVerified)} OR ${eq(emailVerified, false)})`)
      .commit(),
  }));
  if (outcome.committed) return;
  if (outcome.refused('unverified')) throw new BadRequestError(ALREADY_VERIFIED);
  throw outcome.unexpected();
}
