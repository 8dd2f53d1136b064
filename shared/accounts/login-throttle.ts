import { writeItem } from '../data/writes.js';
import { ServiceUnavailableError, TooManyRequestsError } from '../errors.js';
import type { Deps } from '../runtime.js';

const WINDOW_MS = 60_000;
/** Attempts allowed per e-mail in one window; the next one is refused. */
const ATTEMPTS_PER_WINDOW = 5;
export const LOGIN_LIMIT_MESSAGE = 'Too many login attempts; try again later';

type ThrottleDeps = Pick<Deps, 'data' | 'clock'>;

/**
 * Counts a login attempt for an e-mail (known or not) before the password is checked, so parallel
 * attempts cannot slip past the limit: the count is an atomic increment, not a read.
 */
export async function countLoginAttempt(deps: ThrottleDeps, email: string): Promise<void> {
  const throttle = deps.data.entities.loginThrottle;
  const now = deps.clock.now().getTime();
  const windowStart = now - WINDOW_MS;
  for (let round = 0; round < 3; round++) {
    const counted = await writeItem(() =>
      throttle
        .update({ email })
        .add({ failures: 1 })
        .where(({ windowStartedAt }, { gt }) => gt(windowStartedAt, windowStart))
        .go({ response: 'all_new' }),
    );
    if (counted.written) {
      const { data } = counted.value;
      if ((data.failures ?? 0) > ATTEMPTS_PER_WINDOW) {
        const retryAfter = Math.max(1, Math.ceil(((data.windowStartedAt ?? now) + WINDOW_MS - now) / 1000));
        throw new TooManyRequestsError(LOGIN_LIMIT_MESSAGE, retryAfter);
      }
      return;
    }
    // No current window: open one, unless another request just did (then count in that one).
    const opened = await writeItem(() =>
      throttle
        .put({ email, failures: 1, windowStartedAt: now, ttl: Math.ceil((now + WINDOW_MS) / 1000) + 60 })
        .where(({ windowStartedAt }, { notExists, lte }) => `${notExists(windowStartedAt)} OR ${lte(windowStartedAt, windowStart)}`)
        .go(),
    );
    if (opened.written) return;
  }
  // Windows opened and closed under us three times: the attempt is not let through uncounted.
  throw new ServiceUnavailableError();
}

/** A successful login clears the count. */
export async function clearLoginAttempts(deps: ThrottleDeps, email: string): Promise<void> {
  await writeItem(() => deps.data.entities.loginThrottle.delete({ email }).go());
}
