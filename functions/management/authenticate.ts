import { API_KEY_MESSAGES, bearerKeyOwner, resumeSession, type Role, sessionTenant } from '../../shared/identity/index.js';
import { type Deps, UnauthorizedError } from '../../shared/platform/index.js';
import { type HttpEvent, readCookie, SESSION_COOKIE } from '../../shared/platform/http/index.js';

/**
 * Who is calling, the tenant the request acts in (`tenantId`: every tenant-owned item is keyed by it) and their role
 * there (DECISIONS §17). `userId` is the signed-in user (a key: the tenant's owner, whose account the key belongs to).
 */
type Tenanted = { userId: string; tenantId: string; role: Role };
export type SessionCaller = Tenanted & { via: 'session'; token: string; tokenHash: string; refreshed: boolean };
export type ApiKeyCaller = Tenanted & { via: 'apiKey'; apiKeyId: string };
export type Caller = SessionCaller | ApiKeyCaller;

/**
 * DECISIONS §13: an API key reaches every `/api` route but the account's own credentials (its keys, password, profile,
 * session, verification e-mail), so that revoking a leaked key locks its holder out.
 */
export const SESSION_REQUIRED = 'This route needs a signed-in session';

/** A bearer secret key wins over the cookie: server-to-server callers need no session and no origin. */
export async function authenticate(deps: Deps, event: HttpEvent): Promise<Caller> {
  const owner = await bearerKeyOwner(deps, event);
  if (owner) return { userId: owner.userId, tenantId: owner.userId, role: owner.role, via: 'apiKey', apiKeyId: owner.apiKeyId };
  const token = readCookie(event, SESSION_COOKIE);
  const session = token ? await resumeSession(deps, token) : undefined;
  if (!token || !session) throw new UnauthorizedError(API_KEY_MESSAGES.missing);
  const access = await sessionTenant(deps, session.userId, session.tenantId);
  return { userId: session.userId, ...access, via: 'session', token, tokenHash: session.tokenHash, refreshed: session.refreshed };
}
