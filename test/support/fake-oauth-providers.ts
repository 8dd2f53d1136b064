import { createHash, generateKeyPairSync, randomBytes, randomUUID, sign } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A fake Google and a fake GitHub on this machine, each its own HTTP server, speaking the parts of their OAuth
 * protocols the service uses (the addresses of DECISIONS §11 point the service at them):
 * - Google: the consent page (`/o/oauth2/v2/auth`, PKCE S256 required), the token endpoint (client secret in the
 *   form, one use per code, verifier checked, an RS256 ID token), and OpenID userinfo.
 * - GitHub: the authorize page, the token endpoint (which refuses a bad code with 200 and `{error}`, as GitHub does),
 *   and the API's `/user` and `/user/emails` (which, as GitHub's, want a User-Agent).
 * A test registers accounts, then plays the browser: it fetches the consent page the service redirected to, with
 * `x-fake-account` naming who consents (or `x-fake-consent: deny`), and gets the redirect back to the callback.
 * How an account's provider fails is set on the account, so tests running side by side do not meet each other's.
 */

/** How one step of the provider answers for an account: an HTTP error, a body that is not JSON, or a dropped connection. */
export type Failure = 'status-400' | 'status-401' | 'status-500' | 'garbage' | 'drop';

export type GoogleAccount = {
  sub: string;
  email: string;
  email_verified: boolean;
  name?: string;
  picture?: string;
  fail?: { token?: Failure; userinfo?: Failure; /** userinfo describes another `sub` than the ID token */ otherSubject?: boolean };
};

export type GitHubAccount = {
  id: number;
  login: string;
  name?: string | null;
  avatar_url?: string;
  emails: { email: string; primary: boolean; verified: boolean }[];
  fail?: { token?: Failure; user?: Failure; emails?: Failure };
};

export const GOOGLE_ISSUER = 'https://accounts.google.com';

type Grant<A> = { account: A; clientId: string; redirectUri: string; codeChallenge?: string; expiresAt: number; used: boolean };

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
  });

const sendJson = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(body));
};

/** Answers as `failure` says; false when there is no failure to play. */
function playFailure(res: ServerResponse, failure: Failure | undefined): boolean {
  switch (failure) {
    case undefined:
      return false;
    case 'drop':
      res.socket?.destroy();
      return true;
    case 'garbage':
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>We are down for maintenance</body></html>');
      return true;
    case 'status-400':
      sendJson(res, 400, { error: 'invalid_request', error_description: 'Bad Request' });
      return true;
    case 'status-401':
      sendJson(res, 401, { error: 'invalid_token' }, { 'www-authenticate': 'Bearer error="invalid_token"' });
      return true;
    case 'status-500':
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('Internal Server Error');
      return true;
  }
}

const base64url = (value: Buffer | string) => Buffer.from(value).toString('base64url');

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

/**
 * The consent page of both fakes: checks the authorization request as the provider would, then sends the browser
 * back to `redirect_uri` with a one-time code and the state, or with `error=access_denied` when consent is refused.
 */
function consent<A>(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  options: { clientId: string; accounts: Map<string, A>; grants: Map<string, Grant<A>>; scopes: string[]; pkce: boolean },
) {
  const p = url.searchParams;
  const problems = [
    p.get('client_id') !== options.clientId && 'unknown client_id',
    !URL.canParse(p.get('redirect_uri') ?? '') && 'redirect_uri missing',
    // Google wants `response_type=code`; GitHub takes it or nothing.
    (options.pkce ? p.get('response_type') !== 'code' : ![null, 'code'].includes(p.get('response_type'))) && 'response_type must be code',
    !p.get('state') && 'state missing',
    ...options.scopes.map((scope) => !(p.get('scope') ?? '').split(/[ ,]/).includes(scope) && `scope ${scope} missing`),
    options.pkce && (p.get('code_challenge_method') !== 'S256' || !/^[A-Za-z0-9_-]{43}$/.test(p.get('code_challenge') ?? '')) && 'PKCE S256 required',
  ].filter(Boolean);
  if (problems.length) return sendJson(res, 400, { error: 'invalid_request', problems });
  const back = new URL(p.get('redirect_uri')!);
  if (req.headers['x-fake-consent'] === 'deny') {
    back.searchParams.set('error', 'access_denied');
    back.searchParams.set('error_description', 'The user has denied your application access.');
  } else {
    const account = options.accounts.get(String(req.headers['x-fake-account']));
    if (!account) return sendJson(res, 400, { error: 'no such fake account (x-fake-account)' });
    const code = base64url(randomBytes(20));
    options.grants.set(code, {
      account,
      clientId: options.clientId,
      redirectUri: p.get('redirect_uri')!,
      codeChallenge: p.get('code_challenge') ?? undefined,
      expiresAt: Date.now() + 60_000,
      used: false,
    });
    back.searchParams.set('code', code);
  }
  back.searchParams.set('state', p.get('state')!);
  res.writeHead(302, { location: back.href });
  res.end();
}

/** Takes a grant for a token request: the code once, for the client and redirect it was issued to. */
function takeGrant<A>(grants: Map<string, Grant<A>>, form: URLSearchParams): Grant<A> | undefined {
  const grant = grants.get(form.get('code') ?? '');
  if (!grant || grant.used || grant.expiresAt < Date.now() || grant.redirectUri !== form.get('redirect_uri')) return undefined;
  grant.used = true;
  return grant;
}

export async function startFakeGoogle() {
  const clientId = `${randomUUID()}.apps.googleusercontent.com`;
  const clientSecret = `GOCSPX-${base64url(randomBytes(21))}`;
  const accounts = new Map<string, GoogleAccount>();
  const grants = new Map<string, Grant<GoogleAccount>>();
  const accessTokens = new Map<string, GoogleAccount>();
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const idToken = (account: GoogleAccount) => {
    const now = Math.floor(Date.now() / 1000);
    const header = base64url(JSON.stringify({ alg: 'RS256', kid: 'fake-google', typ: 'JWT' }));
    const claims = base64url(
      JSON.stringify({ iss: GOOGLE_ISSUER, azp: clientId, aud: clientId, sub: account.sub, email: account.email, email_verified: account.email_verified, iat: now, exp: now + 3600 }),
    );
    return `${header}.${claims}.${base64url(sign('sha256', Buffer.from(`${header}.${claims}`), privateKey))}`;
  };

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const body = await readBody(req);
    if (req.method === 'GET' && url.pathname === '/o/oauth2/v2/auth') {
      return consent(req, res, url, { clientId, accounts, grants, scopes: ['openid', 'email'], pkce: true });
    }
    if (req.method === 'POST' && url.pathname === '/token') {
      const form = new URLSearchParams(body);
      if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret) {
        return sendJson(res, 401, { error: 'invalid_client', error_description: 'Unauthorized' });
      }
      if (form.get('grant_type') !== 'authorization_code') return sendJson(res, 400, { error: 'unsupported_grant_type' });
      const grant = takeGrant(grants, form);
      const verifier = form.get('code_verifier') ?? '';
      const challenge = base64url(createHash('sha256').update(verifier).digest());
      if (!grant || grant.codeChallenge !== challenge) return sendJson(res, 400, { error: 'invalid_grant', error_description: 'Bad Request' });
      if (playFailure(res, grant.account.fail?.token)) return;
      const accessToken = `ya29.${base64url(randomBytes(30))}`;
      accessTokens.set(accessToken, grant.account);
      return sendJson(res, 200, {
        access_token: accessToken,
        expires_in: 3599,
        scope: 'openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile',
        token_type: 'Bearer',
        id_token: idToken(grant.account),
      });
    }
    if (req.method === 'GET' && url.pathname === '/v1/userinfo') {
      const account = accessTokens.get(/^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1] ?? '');
      if (!account) return sendJson(res, 401, { error: 'invalid_token' }, { 'www-authenticate': 'Bearer error="invalid_token"' });
      if (playFailure(res, account.fail?.userinfo)) return;
      const { sub, email, email_verified, name, picture } = account;
      return sendJson(res, 200, { sub: account.fail?.otherSubject ? `${sub}0` : sub, email, email_verified, name, picture });
    }
    sendJson(res, 404, { error: 'not_found' });
  });
  const url = await listen(server);
  return {
    url,
    clientId,
    clientSecret,
    /** What points the service at this fake (DECISIONS §11). */
    env: {
      GOOGLE_CLIENT_ID: clientId,
      GOOGLE_CLIENT_SECRET: clientSecret,
      GOOGLE_AUTH_URL: `${url}/o/oauth2/v2/auth`,
      GOOGLE_TOKEN_URL: `${url}/token`,
      GOOGLE_USERINFO_URL: `${url}/v1/userinfo`,
    },
    /** Registers an account; its key is what `x-fake-account` names at the consent page. */
    addAccount(account: Partial<GoogleAccount> & Pick<GoogleAccount, 'email'>): string {
      const full: GoogleAccount = { sub: String(100_000_000_000 + accounts.size + Math.floor(Math.random() * 1e9)), email_verified: true, name: 'Google User', ...account };
      const key = `google-${randomUUID()}`;
      accounts.set(key, full);
      return key;
    },
    account: (key: string) => accounts.get(key)!,
    close: () => close(server),
  };
}

export async function startFakeGitHub() {
  const clientId = `Iv1.${randomBytes(8).toString('hex')}`;
  const clientSecret = randomBytes(20).toString('hex');
  const accounts = new Map<string, GitHubAccount>();
  const grants = new Map<string, Grant<GitHubAccount>>();
  const accessTokens = new Map<string, GitHubAccount>();
  let nextId = 1_000_000 + Math.floor(Math.random() * 1e6);

  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    const body = await readBody(req);
    if (req.method === 'GET' && url.pathname === '/login/oauth/authorize') {
      return consent(req, res, url, { clientId, accounts, grants, scopes: ['user:email'], pkce: false });
    }
    if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') {
      const form = new URLSearchParams(body);
      if (!/application\/json/.test(req.headers.accept ?? '')) {
        res.writeHead(200, { 'content-type': 'application/x-www-form-urlencoded' });
        return res.end('error=not_json');
      }
      if (form.get('client_id') !== clientId || form.get('client_secret') !== clientSecret) {
        return sendJson(res, 200, { error: 'incorrect_client_credentials', error_description: 'The client_id and/or client_secret passed are incorrect.' });
      }
      const grant = takeGrant(grants, form);
      // GitHub's own way: 200 with an error body.
      if (!grant) return sendJson(res, 200, { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' });
      if (playFailure(res, grant.account.fail?.token)) return;
      const accessToken = `gho_${randomBytes(18).toString('hex')}`;
      accessTokens.set(accessToken, grant.account);
      return sendJson(res, 200, { access_token: accessToken, token_type: 'bearer', scope: 'read:user,user:email' });
    }
    if (req.method === 'GET' && (url.pathname === '/user' || url.pathname === '/user/emails')) {
      if (!req.headers['user-agent']) return sendJson(res, 403, { message: 'Request forbidden by administrative rules. Please make sure your request has a User-Agent header' });
      const account = accessTokens.get(/^(?:Bearer|token) (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? '');
      if (!account) return sendJson(res, 401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest' });
      if (url.pathname === '/user') {
        if (playFailure(res, account.fail?.user)) return;
        const { id, login, name, avatar_url } = account;
        return sendJson(res, 200, { login, id, node_id: `U_${id}`, avatar_url, type: 'User', name: name ?? null, email: null });
      }
      if (playFailure(res, account.fail?.emails)) return;
      return sendJson(res, 200, account.emails.map((entry) => ({ ...entry, visibility: entry.primary ? 'private' : null })));
    }
    sendJson(res, 404, { message: 'Not Found' });
  });
  const url = await listen(server);
  return {
    url,
    clientId,
    clientSecret,
    env: {
      GITHUB_CLIENT_ID: clientId,
      GITHUB_CLIENT_SECRET: clientSecret,
      GITHUB_AUTH_URL: `${url}/login/oauth/authorize`,
      GITHUB_TOKEN_URL: `${url}/login/oauth/access_token`,
      GITHUB_API_URL: url,
    },
    addAccount(account: Partial<GitHubAccount> & Pick<GitHubAccount, 'emails'>): string {
      const id = nextId++;
      const full: GitHubAccount = { id, login: `octo${id}`, name: null, avatar_url: `https://avatars.githubusercontent.test/u/${id}`, ...account };
      const key = `github-${randomUUID()}`;
      accounts.set(key, full);
      return key;
    },
    account: (key: string) => accounts.get(key)!,
    close: () => close(server),
  };
}

export type FakeGoogle = Awaited<ReturnType<typeof startFakeGoogle>>;
export type FakeGitHub = Awaited<ReturnType<typeof startFakeGitHub>>;

/** Both fakes, and the environment that points a service at them. */
export async function startFakeOAuthProviders() {
  const [google, github] = await Promise.all([startFakeGoogle(), startFakeGitHub()]);
  return {
    google,
    github,
    env: { ...google.env, ...github.env },
    close: async () => {
      await Promise.all([google.close(), github.close()]);
    },
  };
}
