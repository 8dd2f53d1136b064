import { deleteItems, transact, writeItem } from '../../platform/data/index.js';
import { type Deps, randomBase32, sha256Hex, UnauthorizedError } from '../../platform/index.js';

const DAY_MS = 24 * 60 * 60 * 1000;
export const SESSION_LIFETIME_MS = 30 * DAY_MS;
/** A session used with less than this left is extended to a full lifetime again. */
const REFRESH_BELOW_MS = 15 * DAY_MS;

type SessionDeps = Pick<Deps, 'data' | 'clock'>;

/** A new session token: 20 random bytes, base32 (32 characters), and its item. Only the token's SHA-256 is stored. */
function newSession(deps: SessionDeps, userId: string) {
  const token = randomBase32(20);
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + SESSION_LIFETIME_MS);
  const item = {
    tokenHash: sha256Hex(token),
    userId,
    createdAt: now.toISOString(),
    expiresAt: expiresAt.toISOString(),
    ttl: Math.ceil(expiresAt.getTime() / 1000),
  };
  return { token, item };
}

// 160 random bits: a token that is already taken means something is badly wrong, not bad luck.
const collision = () => new Error('session token collision');

/**
 * Whether a session whose create was refused is our own: the SDK retries a write whose answer was lost (a timeout),
 * and the retry of a create that had landed finds its own item.
 */
async function landedBefore(deps: SessionDeps, item: ReturnType<typeof newSession>['item']): Promise<boolean> {
  const { data } = await deps.data.entities.session.get({ tokenHash: item.tokenHash }).go({ consistent: true });
  return data?.userId === item.userId && data.createdAt === item.createdAt;
}

export async function startSession(deps: SessionDeps, userId: string): Promise<string> {
  const { token, item } = newSession(deps, userId);
  const written = await writeItem(() => deps.data.entities.session.create(item).go());
  if (!written.written && !(await landedBefore(deps, item))) throw collision();
  return token;
}

/**
 * A session for a password login, made only while the account still has the password that was checked: a password
 * removed or changed between the check and this write (a takeover ending every session, DECISIONS §13) signs nobody
 * in. Undefined then.
 */
export async function startPasswordSession(deps: SessionDeps, userId: string, passwordHash: string): Promise<string | undefined> {
  const { token, item } = newSession(deps, userId);
  const outcome = await transact(deps.data, (tx) => ({
    session: tx.session.create(item).commit(),
    password: tx.user
      .check({ userId })
      .where(({ passwordHash: stored }, { eq }) => eq(stored, passwordHash))
      .commit(),
  }));
  if (outcome.committed) return token;
  if (outcome.refused('password')) return undefined;
  if (outcome.refused('session') && (await landedBefore(deps, item))) return token;
  throw outcome.refused('session') ? collision() : outcome.unexpected();
}

/** `tenantId`: the tenant the session was switched to (DECISIONS §17), if any. */
export type ActiveSession = { userId: string; tenantId?: string; tokenHash: string; refreshed: boolean };

/**
 * The live session of a token, extended when under 15 days remain; undefined when unknown, expired,
 * or ended (logout, password change) between the read and the extension.
 */
export async function resumeSession(deps: SessionDeps, token: string): Promise<ActiveSession | undefined> {
  const tokenHash = sha256Hex(token);
  const { data: session } = await deps.data.entities.session.get({ tokenHash }).go({ consistent: true });
  if (!session) return undefined;
  const now = deps.clock.now().getTime();
  const expiresAt = Date.parse(session.expiresAt);
  if (expiresAt <= now) return undefined;
  const tenantId = session.tenantId;
  if (expiresAt - now >= REFRESH_BELOW_MS) return { userId: session.userId, tenantId, tokenHash, refreshed: false };
  const extended = new Date(now + SESSION_LIFETIME_MS);
  const written = await writeItem(() =>
    deps.data.entities.session
      .patch({ tokenHash })
      .set({ expiresAt: extended.toISOString(), ttl: Math.ceil(extended.getTime() / 1000) })
      .go(),
  );
  return written.written ? { userId: session.userId, tenantId, tokenHash, refreshed: true } : undefined;
}

/** Moves a session to another tenant (the caller checked the user's membership there). */
export async function switchSessionTenant(deps: SessionDeps, tokenHash: string, tenantId: string): Promise<void> {
  const written = await writeItem(() => deps.data.entities.session.patch({ tokenHash }).set({ tenantId }).go({ response: 'none' }));
  if (!written.written) throw new UnauthorizedError();
}

export async function endSession(deps: SessionDeps, token: string): Promise<void> {
  await writeItem(() => deps.data.entities.session.delete({ tokenHash: sha256Hex(token) }).go());
}

/** Ends every session of a user but the one kept (after a password change), or every one (a takeover). */
export async function endOtherSessions(deps: SessionDeps, userId: string, keepTokenHash?: string): Promise<void> {
  const { session } = deps.data.entities;
  const { data: sessions } = await session.query.byUser({ userId }).go({ pages: 'all' });
  const doomed = sessions.filter((s) => s.tokenHash !== keepTokenHash).map((s) => ({ tokenHash: s.tokenHash }));
  await deleteItems(doomed, (keys) => session.delete(keys).go());
}
