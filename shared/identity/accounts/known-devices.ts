import { writeItem } from '../../platform/data/index.js';
import { DEVICE_MAX_AGE_SECONDS } from '../../platform/http/index.js';
import { type Deps, randomBase32, sha256Hex } from '../../platform/index.js';
import { logger } from '../../platform/observability/index.js';

type DeviceDeps = Pick<Deps, 'data' | 'clock'>;

/** A token as `rememberDevice` makes it: 20 random bytes, base32. Any other cookie value was never one of ours. */
const TOKEN_SHAPE = /^[a-z2-7]{32}$/;

const deviceHash = (token: string) => sha256Hex(token);

/**
 * The browser whose `device` cookie is `token`, when it signed in to the account of `email` before (DECISIONS §20: failed
 * logins from other addresses never lock it out): its token's SHA-256, which names it to the rate limits. One strongly
 * consistent read; none for a missing or malformed cookie.
 */
export async function knownDevice(deps: DeviceDeps, token: string | undefined, email: string): Promise<string | undefined> {
  if (!token || !TOKEN_SHAPE.test(token)) return undefined;
  const { data } = await deps.data.entities.knownDevice.get({ deviceHash: deviceHash(token), email }).go({ consistent: true });
  return data && data.ttl > Math.floor(deps.clock.now().getTime() / 1000) ? data.deviceHash : undefined;
}

/**
 * Records that this browser signed in to the account of `email`: its cookie's token when it has one of ours (one browser,
 * one token, whichever accounts it signs in to), else a new one. Answers the token for the cookie. Bookkeeping: a failed
 * write leaves the browser unknown, never the sign-in failed.
 */
export async function rememberDevice(deps: DeviceDeps, token: string | undefined, email: string): Promise<string> {
  const kept = token && TOKEN_SHAPE.test(token) ? token : randomBase32(20);
  const now = deps.clock.now();
  await writeItem(() =>
    deps.data.entities.knownDevice
      .put({ deviceHash: deviceHash(kept), email, signedInAt: now.toISOString(), ttl: Math.floor(now.getTime() / 1000) + DEVICE_MAX_AGE_SECONDS })
      .go({ response: 'none' }),
  ).catch((error: unknown) => logger.warn('Signed-in device not recorded', { error }));
  return kept;
}
