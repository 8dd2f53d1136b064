import type * as OAuth from 'oauth4webapi';
import * as z from 'zod/mini';
import { secretValue, type SecretValue } from '../../platform/aws/index.js';
import { type Config, type CoreConfig, lazily, type OAuthClientConfig } from '../../platform/index.js';
import { email as emailRule, httpUrl } from '../../platform/http/index.js';
import { logger } from '../../platform/observability/index.js';
import { OAuthFailure } from './oauth-failure.js';

/**
 * The OAuth providers a vendor can sign in with (DECISIONS §11), spoken to with `oauth4webapi`: a fetch-based,
 * OpenID-certified client that takes every endpoint from us, so the addresses of DECISIONS §11 (a fake provider on
 * this machine in tests) replace the providers' own without a code path of their own.
 */
export const OAUTH_PROVIDERS = ['google', 'github'] as const;
export type OAuthProviderName = (typeof OAUTH_PROVIDERS)[number];

/** What a provider says about the account that consented. */
export type ProviderProfile = {
  provider: OAuthProviderName;
  /** The provider's stable id of the account: Google's `sub`, GitHub's numeric `id`. */
  subject: string;
  /** Set only when the provider says the address is verified (Google `email_verified`, GitHub's primary and verified one); lower-cased. */
  verifiedEmail?: string;
  name?: string;
  avatarUrl?: string;
};

export type OAuthProvider = {
  readonly name: OAuthProviderName;
  /** Google: the code is bound to a PKCE verifier kept with the state. */
  readonly usesPkce: boolean;
  /** The provider's consent page for one sign-in. */
  authorizationUrl(request: { redirectUri: string; state: string; codeChallenge?: string }): string;
  /**
   * The account behind a callback whose `state` was taken: the provider's error (`access_denied` when the user declined)
   * refused, the code exchanged, the profile read. Every failure is an `OAuthFailure`.
   */
  accountOf(callback: URLSearchParams, expected: { state: string; redirectUri: string; codeVerifier?: string }): Promise<ProviderProfile>;
};

/** The configured providers only: one without a client id and secret is absent (its routes answer 404). */
export type OAuthProviders = Partial<Record<OAuthProviderName, OAuthProvider>>;

/**
 * The whole conversation with a provider after the callback (code exchange and profile reads) gets this long: the
 * management function has 10 s, and a provider that hangs is a failed sign-in, not a timed-out function.
 */
const PROVIDER_DEADLINE_MS = 7000;

/** Built once per container; each provider's client secret is read on its first callback (Secrets Manager in AWS). */
export function createOAuthProviders(config: Config<'oauth'>): OAuthProviders {
  // Plain http is for the fakes of the local runtime and tests; in AWS every endpoint is the provider's https one.
  const insecure = config.runtime === 'local';
  const providers: OAuthProviders = {};
  const { google, github } = config.oauth;
  if (isConfigured(google)) providers.google = googleProvider(config, google, insecure);
  if (isConfigured(github)) providers.github = githubProvider(config, github, insecure);
  return providers;
}

const isConfigured = <E extends string>(client: OAuthClientConfig<E>): client is OAuthClientConfig<E> & { clientId: string } =>
  Boolean(client.clientId && (client.clientSecret || client.clientSecretId));

/**
 * `oauth4webapi`, imported by the first sign-in that reaches a provider (shared/identity/accounts/oauth-sign-in.ts too): the
 * management API's other routes, and a cold container that serves one of them, never load it.
 */
export const oauthLibrary = () => import('oauth4webapi');

type Conversation = { as: OAuth.AuthorizationServer; client: OAuth.Client; secret: SecretValue; insecure: boolean };

function requestOptions(oauth: typeof OAuth, conversation: Conversation, signal: AbortSignal) {
  return { signal, ...(conversation.insecure && { [oauth.allowInsecureRequests]: true }) };
}

/** The callback's answer checked (state, provider error), then the code exchanged: the token endpoint's raw answer. */
async function exchangeCode(
  conversation: Conversation,
  callback: URLSearchParams,
  expected: { state: string; redirectUri: string; codeVerifier?: string },
  signal: AbortSignal,
): Promise<Response> {
  const { as, client } = conversation;
  const oauth = await oauthLibrary();
  let params: URLSearchParams;
  try {
    params = oauth.validateAuthResponse(as, client, callback, expected.state);
  } catch (error) {
    if (error instanceof oauth.AuthorizationResponseError) {
      throw new OAuthFailure(error.error === 'access_denied' ? 'access_denied' : 'provider_error', { cause: error });
    }
    // A repeated parameter, or an `iss` of another issuer.
    throw new OAuthFailure('invalid_request', { cause: error });
  }
  if (params.getAll('code').length !== 1 || !params.get('code')) throw new OAuthFailure('invalid_request');
  const clientSecret = await conversation.secret().catch((error: unknown) => {
    // Ours, not the provider's: a secret missing from Secrets Manager, or Secrets Manager unreachable.
    logger.error('OAuth client secret unavailable', { issuer: as.issuer, error });
    throw new OAuthFailure('temporarily_unavailable', { cause: error });
  });
  return oauth.authorizationCodeGrantRequest(
    as,
    client,
    oauth.ClientSecretPost(clientSecret),
    params,
    expected.redirectUri,
    expected.codeVerifier ?? oauth.nopkce,
    requestOptions(oauth, conversation, signal),
  );
}

/**
 * Runs the provider's part of a sign-in; anything that goes wrong in it (a refused code, a 4xx or 5xx, a body that is
 * not what the provider documents, no answer in time) is `provider_error`, logged with what failed but no token or code.
 */
async function talkingTo<T>(provider: OAuthProviderName, run: (signal: AbortSignal) => Promise<T>): Promise<T> {
  try {
    return await run(AbortSignal.timeout(PROVIDER_DEADLINE_MS));
  } catch (error) {
    if (error instanceof OAuthFailure) throw error;
    const { name, message, code } = error as { name?: string; message?: string; code?: string };
    logger.warn('OAuth provider failed', { provider, reason: { name, code, message: message?.slice(0, 300) } });
    throw new OAuthFailure('provider_error', { cause: error });
  }
}

/** A provider's text value as we keep it: trimmed, at most `max` characters, absent when empty. */
const text = (value: string | null | undefined, max: number) => value?.trim().slice(0, max) || undefined;
/** A verified address, when it is one we can keep as an account's e-mail. */
const usableEmail = (value: string | undefined) => (value !== undefined && z.safeParse(emailRule, value.trim()).success ? value.trim().toLowerCase() : undefined);
const usableAvatar = (value: string | null | undefined) => (value && z.safeParse(httpUrl, value).success ? value : undefined);
/** Built with the first sign-in that reads one, not at every cold start of the management function (issue 26). */
const googleUserInfo = lazily(() =>
  z.object({
    /** Subjects become part of a key: a provider's ids are far shorter. */
    sub: z.string().check(z.minLength(1), z.maxLength(255)),
    email: z.optional(z.string()),
    email_verified: z.optional(z.unknown()),
    name: z.optional(z.nullable(z.string())),
    picture: z.optional(z.nullable(z.string())),
  }),
);

function googleProvider(config: CoreConfig, settings: OAuthClientConfig<'authUrl' | 'tokenUrl' | 'userinfoUrl'> & { clientId: string }, insecure: boolean): OAuthProvider {
  const conversation: Conversation = {
    as: {
      issuer: 'https://accounts.google.com',
      authorization_endpoint: settings.endpoints.authUrl,
      token_endpoint: settings.endpoints.tokenUrl,
      userinfo_endpoint: settings.endpoints.userinfoUrl,
    },
    client: { client_id: settings.clientId },
    secret: secretValue(config, { value: settings.clientSecret, secretId: settings.clientSecretId }, 'Google client secret'),
    insecure,
  };
  return {
    name: 'google',
    usesPkce: true,
    authorizationUrl: ({ redirectUri, state, codeChallenge }) =>
      withQuery(settings.endpoints.authUrl, {
        client_id: settings.clientId,
        redirect_uri: redirectUri,
        response_type: 'code',
        scope: 'openid email profile',
        state,
        code_challenge: codeChallenge!,
        code_challenge_method: 'S256',
      }),
    accountOf: (callback, expected) =>
      talkingTo('google', async (signal) => {
        const { as, client } = conversation;
        const response = await exchangeCode(conversation, callback, expected, signal);
        const oauth = await oauthLibrary();
        // Google answers an ID token for the `openid` scope; its claims (issuer, audience, expiry) are checked here,
        // and userinfo must describe the same `sub`.
        const tokens = await oauth.processAuthorizationCodeResponse(as, client, response, { requireIdToken: true });
        const claims = oauth.getValidatedIdTokenClaims(tokens)!;
        const infoResponse = await oauth.userInfoRequest(as, client, tokens.access_token, requestOptions(oauth, conversation, signal));
        const info = z.parse(googleUserInfo(), await oauth.processUserInfoResponse(as, client, claims.sub, infoResponse));
        return {
          provider: 'google',
          subject: info.sub,
          // DECISIONS §11: the e-mail counts only when userinfo says `email_verified: true`.
          verifiedEmail: info.email_verified === true ? usableEmail(info.email) : undefined,
          name: text(info.name, 200),
          avatarUrl: usableAvatar(info.picture),
        };
      }),
  };
}

const githubUser = lazily(() =>
  z.object({
    id: z.int().check(z.positive()),
    login: z.string(),
    name: z.optional(z.nullable(z.string())),
    avatar_url: z.optional(z.nullable(z.string())),
  }),
);
const githubEmails = lazily(() => z.array(z.object({ email: z.string(), primary: z.boolean(), verified: z.boolean() })));

function githubProvider(config: CoreConfig, settings: OAuthClientConfig<'authUrl' | 'tokenUrl' | 'apiUrl'> & { clientId: string }, insecure: boolean): OAuthProvider {
  const conversation: Conversation = {
    as: { issuer: 'https://github.com', authorization_endpoint: settings.endpoints.authUrl, token_endpoint: settings.endpoints.tokenUrl },
    client: { client_id: settings.clientId },
    secret: secretValue(config, { value: settings.clientSecret, secretId: settings.clientSecretId }, 'GitHub client secret'),
    insecure,
  };
  /** One read of the GitHub API as the user: JSON of 200 only, checked against `schema`. */
  const read = async <S extends z.core.$ZodType>(path: string, accessToken: string, schema: S, signal: AbortSignal): Promise<z.infer<S>> => {
    const oauth = await oauthLibrary();
    const response = await oauth.protectedResourceRequest(
      accessToken,
      'GET',
      new URL(`${settings.endpoints.apiUrl}${path}`),
      new Headers({ accept: 'application/vnd.github+json', 'x-github-api-version': '2022-11-28' }),
      null,
      requestOptions(oauth, conversation, signal),
    );
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new Error(`GitHub ${path} answered ${response.status}`);
    }
    return z.parse(schema, await response.json());
  };
  return {
    name: 'github',
    usesPkce: false,
    authorizationUrl: ({ redirectUri, state }) =>
      withQuery(settings.endpoints.authUrl, { client_id: settings.clientId, redirect_uri: redirectUri, scope: 'read:user user:email', state }),
    accountOf: (callback, expected) =>
      talkingTo('github', async (signal) => {
        const { as, client } = conversation;
        const response = await exchangeCode(conversation, callback, expected, signal);
        const oauth = await oauthLibrary();
        // GitHub refuses a code with 200 and `{error}`: no `access_token`, so this throws as for any other refusal.
        const tokens = await oauth.processAuthorizationCodeResponse(as, client, response);
        const [user, emails] = await Promise.all([
          read('/user', tokens.access_token, githubUser(), signal),
          read('/user/emails', tokens.access_token, githubEmails(), signal),
        ]);
        // DECISIONS §11: only the primary address, and only when GitHub has verified it.
        const primary = emails.find((entry) => entry.primary && entry.verified);
        return {
          provider: 'github',
          subject: String(user.id),
          verifiedEmail: usableEmail(primary?.email),
          name: text(user.name, 200) ?? text(user.login, 200),
          avatarUrl: usableAvatar(user.avatar_url),
        };
      }),
  };
}

/** `base` with `params` added to whatever query it has. */
function withQuery(base: string, params: Record<string, string>): string {
  const url = new URL(base);
  for (const [name, value] of Object.entries(params)) url.searchParams.set(name, value);
  return url.href;
}
