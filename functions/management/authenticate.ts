import { API_KEY_MESSAGES, bearerKeyOwner } from '../../shared/accounts/bearer-key.js';
import { resumeSession } from '../../shared/accounts/sessions.js';
import { UnauthorizedError } from '../../shared/errors.js';
import { readCookie, SESSION_COOKIE } from '../../shared/http/cookies.js';
import type { HttpEvent } from '../../shared/http/types.js';
import type { Deps } from '../../shared/runtime.js';

export type SessionCaller = { userId: string; via: 'session'; token: string; tokenHash: string; refreshed: boolean };
export type Caller = SessionCaller | { userId: string; via: 'apiKey' };

/**
 * DECISIONS §13: an API key reaches every `/api` route but the account's own credentials (its keys, password, profile,
 * session, verification e-mail), so that revoking a leaked key locks its holder out.
 */
export const SESSION_REQUIRED = 'This route needs a signed-in session';

/** A bearer secret key wins over the cookie: server-to-server callers need no session and no origin. */
export async function authenticate(deps: Deps, event: HttpEvent): Promise<Caller> {
  const owner = await bearerKeyOwner(deps, event);
  if (owner) return { userId: owner.userId, via: 'apiKey' };
  const token = readCookie(event, SESSION_COOKIE);
  const session = token ? await resumeSession(deps, token) : undefined;
  if (!token || !session) throw new UnauthorizedError(API_KEY_MESSAGES.missing);
  return { userId: session.userId, via: 'session', token, tokenHash: session.tokenHash, refreshed: session.refreshed };
}
