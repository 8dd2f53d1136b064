import { type Deps, randomBase32 } from '../../platform/index.js';
import { userForProviderAccount, type IdentityDeps } from './identities.js';
import { OAuthFailure } from './oauth-failure.js';
import { oauthLibrary, type OAuthProvider } from './oauth-providers.js';
import { hasStateShape, saveOAuthState, takeOAuthState } from './oauth-states.js';
import { rememberDevice } from './known-devices.js';
import { startSession } from './sessions.js';
import { toPublicUser, type PublicUser } from './users.js';

type SignInDeps = Pick<Deps, 'data' | 'clock'>;

/**
 * Starts a sign-in: a random `state` (and for Google a PKCE verifier) kept server-side for 10 minutes, bound to a
 * random `browserKey` that the route gives the browser as a short-lived HttpOnly cookie. Answers the provider's
 * consent page to send the browser to.
 */
export async function startOAuthSignIn(
  deps: SignInDeps,
  provider: OAuthProvider,
  redirectUri: string,
): Promise<{ location: string; browserKey: string }> {
  const oauth = await oauthLibrary();
  const state = oauth.generateRandomState();
  const browserKey = randomBase32(20);
  const codeVerifier = provider.usesPkce ? oauth.generateRandomCodeVerifier() : undefined;
  await saveOAuthState(deps, { state, provider: provider.name, browserKey, codeVerifier });
  const codeChallenge = codeVerifier && (await oauth.calculatePKCECodeChallenge(codeVerifier));
  return { location: provider.authorizationUrl({ redirectUri, state, codeChallenge }), browserKey };
}

/**
 * Finishes a sign-in on the provider's callback, in this order: the `state` present (else `invalid_request`) and taken
 * once by the browser that started it (else `invalid_state`); the provider's answer (denied consent, a missing code,
 * a failed exchange or profile read); then the user (shared/identity/accounts/identities.ts) and a new session, and the
 * browser is known to the account (`device`: its cookie's token, answered for the cookie). Any failure is an
 * `OAuthFailure`, and nothing of a user or a session is written before the provider has answered well.
 */
export async function completeOAuthSignIn(
  deps: IdentityDeps,
  provider: OAuthProvider,
  callback: { query: URLSearchParams; browserKey: string | undefined; redirectUri: string; device: string | undefined },
): Promise<{ user: PublicUser; token: string; device: string }> {
  const states = callback.query.getAll('state');
  if (states.length !== 1 || !states[0]) throw new OAuthFailure('invalid_request');
  const state = states[0];
  // A state of another shape was never made here, and a browser without the cookie started nothing: no read for either.
  if (!hasStateShape(state) || !callback.browserKey) throw new OAuthFailure('invalid_state');
  const started = await takeOAuthState(deps, { state, provider: provider.name, browserKey: callback.browserKey });
  if (!started) throw new OAuthFailure('invalid_state');
  const profile = await provider.accountOf(callback.query, { state, redirectUri: callback.redirectUri, codeVerifier: started.codeVerifier });
  const user = await userForProviderAccount(deps, profile);
  const token = await startSession(deps, user.userId);
  return { user: toPublicUser(user), token, device: await rememberDevice(deps, callback.device, user.email) };
}
