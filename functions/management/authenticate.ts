import { resolveApiKey } from '../../shared/accounts/api-keys.js';
import { resumeSession } from '../../shared/accounts/sessions.js';
import { UnauthorizedError } from '../../shared/errors.js';
import { readCookie, SESSION_COOKIE } from '../../shared/http/cookies.js';
import { header } from '../../shared/http/request.js';
import type { HttpEvent } from '../../shared/http/types.js';
import type { Deps } from '../../shared/runtime.js';

export type Caller =
  | { userId: string; via: 'session'; token: string; tokenHash: string; refreshed: boolean }
  | { userId: string; via: 'apiKey' };

export const SECRET_KEY_REQUIRED = 'A secret API key (sk_) is required';

/** A bearer secret key wins over the cookie: server-to-server callers need no session and no origin. */
export async function authenticate(deps: Deps, event: HttpEvent): Promise<Caller> {
  const authorization = header(event, 'authorization');
  if (authorization !== undefined) {
    const [scheme, key] = authorization.split(/\s+/, 2);
    if (scheme?.toLowerCase() !== 'bearer' || !key?.startsWith('sk_')) throw new UnauthorizedError(SECRET_KEY_REQUIRED);
    const userId = await resolveApiKey(deps, key);
    if (!userId) throw new UnauthorizedError('Invalid API key');
    return { userId, via: 'apiKey' };
  }
  const token = readCookie(event, SESSION_COOKIE);
  const session = token ? await resumeSession(deps, token) : undefined;
  if (!token || !session) throw new UnauthorizedError('Authentication required');
  return { userId: session.userId, via: 'session', token, tokenHash: session.tokenHash, refreshed: session.refreshed };
}
