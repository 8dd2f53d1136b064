import { writeItem } from '../../platform/data/index.js';
import { type Deps, sha256Hex } from '../../platform/index.js';
import type { OAuthProviderName } from './oauth-providers.js';

/** A started sign-in may be finished within 10 minutes (the `oauthState` item's TTL and the cookie's Max-Age). */
export const OAUTH_STATE_LIFETIME_SECONDS = 600;

/** `state` as the start route makes it (oauth4webapi's `generateRandomState`: 32 random bytes, base64url). */
const STATE_SHAPE = /^[A-Za-z0-9_-]{43}$/;
export const hasStateShape = (state: string) => STATE_SHAPE.test(state);

type StateDeps = Pick<Deps, 'data' | 'clock'>;

/**
 * Keeps a started sign-in: the SHA-256 of its `state` and of the browser's cookie value (neither is stored as such),
 * and Google's PKCE verifier.
 */
export async function saveOAuthState(
  deps: StateDeps,
  started: { state: string; provider: OAuthProviderName; browserKey: string; codeVerifier?: string },
): Promise<void> {
  const now = deps.clock.now();
  const written = await writeItem(() =>
    deps.data.entities.oauthState
      .create({
        stateHash: sha256Hex(started.state),
        provider: started.provider,
        browserHash: sha256Hex(started.browserKey),
        ...(started.codeVerifier && { codeVerifier: started.codeVerifier }),
        createdAt: now.toISOString(),
        ttl: Math.floor(now.getTime() / 1000) + OAUTH_STATE_LIFETIME_SECONDS,
      })
      .go({ response: 'none' }),
  );
  // 256 random bits: a state that is already taken means something is badly wrong, not bad luck.
  if (!written.written) throw new Error('OAuth state collision');
}

/**
 * Takes a started sign-in, once: one conditional delete that holds only for the provider and the browser that started
 * it, before its 10 minutes are up. Undefined when the state is unknown, used, expired (DynamoDB's TTL removes items
 * late, so the condition decides), for the other provider, or presented by another browser, whose attempt leaves the
 * rightful browser's sign-in in place.
 */
export async function takeOAuthState(
  deps: StateDeps,
  presented: { state: string; provider: OAuthProviderName; browserKey: string },
): Promise<{ codeVerifier?: string } | undefined> {
  const now = Math.floor(deps.clock.now().getTime() / 1000);
  const taken = await writeItem(() =>
    deps.data.entities.oauthState
      .remove({ stateHash: sha256Hex(presented.state) })
      .where(
        ({ provider, browserHash, ttl }, { eq, gt }) =>
          `${eq(provider, presented.provider)} AND ${eq(browserHash, sha256Hex(presented.browserKey))} AND ${gt(ttl, now)}`,
      )
      .go({ response: 'all_old' }),
  );
  if (!taken.written || !taken.value.data) return undefined;
  return { codeVerifier: taken.value.data.codeVerifier };
}
