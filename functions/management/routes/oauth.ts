import { completeOAuthSignIn, OAUTH_FAILURES, OAUTH_PROVIDERS, OAUTH_STATE_LIFETIME_SECONDS, OAuthFailure, type OAuthFailureCode, type OAuthProviderName, type OAuthProviders, startOAuthSignIn, type TakeoverHook } from '../../../shared/identity/index.js';
import { type Config, type Deps, NotFoundError, ServiceUnavailableError } from '../../../shared/platform/index.js';
import { clearedOAuthStateCookie, clientNetwork, DEVICE_COOKIE, deviceCookie, json, OAUTH_STATE_COOKIE, oauthStateCookie, ok, readCookie, redirect, type Route, sessionCookie } from '../../../shared/platform/http/index.js';
import { RATE_LIMITS, type RateLimiter } from '../../../shared/platform/rate-limits/index.js';
import type { RouteBuilders } from '../route.js';

/**
 * Sign-in with Google and GitHub (DECISIONS §11): open routes, as login is. The start route sends the browser to the
 * provider; the callback signs in and sends it to the dashboard with the session cookie, or with `?error=<code>` and
 * no session. A provider without a client id and secret answers both with 404; an unknown one is no route at all (404).
 * `GET /api/oauth/providers` lists the configured ones, so that the sign-in page offers only buttons that work.
 */
export function oauthRoutes(
  deps: Deps<Config<'dashboard' | 'registration'>> & { oauth: OAuthProviders; onTakeover: TakeoverHook },
  limits: RateLimiter,
  { open }: RouteBuilders,
): Route[] {
  const secure = deps.config.runtime === 'aws';
  const dashboardUrl = deps.config.dashboardUrl;
  const configured = (name: OAuthProviderName) => {
    const provider = deps.oauth[name];
    if (!provider) throw new NotFoundError(`${name} login is not configured`);
    return provider;
  };
  const callbackUrl = (baseUrl: string, name: OAuthProviderName) => `${baseUrl}/api/oauth/${name}/callback`;

  /**
   * A failed sign-in: to the dashboard with the code, or JSON when there is no dashboard (400; a closed registration 403,
   * as `POST /api/auth/register` answers it); the state cookie goes.
   */
  const failed = (code: OAuthFailureCode) => {
    const cookies = [clearedOAuthStateCookie(secure)];
    if (!dashboardUrl) return json(code === 'registration_closed' ? 403 : 400, { error: OAUTH_FAILURES[code], code }, { cookies });
    const location = new URL(dashboardUrl);
    location.searchParams.set('error', code);
    return redirect(302, location.href, { cookies });
  };

  const listed = open('GET', '/api/oauth/providers', {}, async () => ok({ providers: OAUTH_PROVIDERS.filter((name) => deps.oauth[name]) }));
  return [listed, ...OAUTH_PROVIDERS.flatMap((name) => [
    open('GET', `/api/oauth/${name}`, {}, async ({ event, baseUrl }) => {
      const provider = configured(name);
      // Each start keeps a state item for 10 minutes: limited per address before anything is written.
      await limits.take(RATE_LIMITS.oauthStart, clientNetwork(event, deps.config));
      const { location, browserKey } = await startOAuthSignIn(deps, provider, callbackUrl(baseUrl, name));
      return redirect(302, location, { cookies: [oauthStateCookie(browserKey, OAUTH_STATE_LIFETIME_SECONDS, secure)] });
    }),
    open('GET', `/api/oauth/${name}/callback`, {}, async ({ event, baseUrl }) => {
      const provider = configured(name);
      try {
        const { user, token, device } = await completeOAuthSignIn(deps, provider, {
          // The raw query, not API Gateway's map: a repeated parameter stays visible (and is refused).
          query: new URLSearchParams(event.rawQueryString),
          browserKey: readCookie(event, OAUTH_STATE_COOKIE),
          redirectUri: callbackUrl(baseUrl, name),
          device: readCookie(event, DEVICE_COOKIE),
        });
        const cookies = [sessionCookie(token, secure), deviceCookie(device, secure), clearedOAuthStateCookie(secure)];
        // Without a dashboard to land on (a local run), the signed-in user as login answers it.
        return dashboardUrl ? redirect(302, dashboardUrl, { cookies }) : ok({ user }, { cookies });
      } catch (error) {
        if (error instanceof OAuthFailure) return failed(error.code);
        if (error instanceof ServiceUnavailableError) return failed('temporarily_unavailable');
        throw error;
      }
    }),
  ])];
}
