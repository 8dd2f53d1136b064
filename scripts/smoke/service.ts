/** How long one request may take before the smoke test calls the service unresponsive. */
const REQUEST_TIMEOUT_MS = 15_000;

export type Answer = { status: number; headers: Headers; body: any; text: string };

type CallOptions = {
  body?: unknown;
  /** The status (or statuses) that count as success. */
  expect: number | number[];
  /** `session`: the cookie with the service's own Origin (account routes); `key`: the sk_ key; `none`: no credentials. */
  auth?: 'session' | 'key' | 'none';
};

/** What went wrong with a request that got no answer, in words a vendor can act on. */
export function unreachable(url: string, error: unknown): Error {
  const { host } = new URL(url);
  const cause = (error as { cause?: { code?: string } }).cause;
  if ((error as Error).name === 'TimeoutError') return new Error(`${url}: no answer within ${REQUEST_TIMEOUT_MS / 1000} s`);
  switch (cause?.code) {
    case 'ECONNREFUSED':
      return new Error(`cannot connect to ${host} (connection refused): is the service running at this address?`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return new Error(`cannot resolve ${host}: check the --url host name`);
    case 'ECONNRESET':
      return new Error(`${host} closed the connection without answering`);
    default:
      return new Error(`no answer from ${url}: ${cause?.code ?? (error as Error).message}`);
  }
}

/** fetch with the smoke test's timeout, and a clear cause when there is no answer. */
export async function send(url: string, init: RequestInit = {}): Promise<Response> {
  try {
    return await fetch(url, { redirect: 'manual', ...init, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) });
  } catch (error) {
    throw unreachable(url, error);
  }
}

/** The service's HTTP API as a vendor's tools call it: a session for the account's own routes, then a secret API key. */
export class Service {
  session?: string;
  apiKey?: string;

  constructor(readonly baseUrl: string) {}

  get origin(): string {
    return new URL(this.baseUrl).origin;
  }

  async call(method: string, path: string, options: CallOptions): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (options.body !== undefined) headers['content-type'] = 'application/json';
    if (options.auth === 'session' && this.session) {
      headers.cookie = `session=${this.session}`;
      // The CSRF rule: a cookie-authenticated change needs the dashboard's or the service's own origin.
      headers.origin = this.origin;
    }
    if (options.auth === 'key' && this.apiKey) headers.authorization = `Bearer ${this.apiKey}`;
    const res = await send(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await res.text();
    const session = res.headers.getSetCookie().find((cookie) => cookie.startsWith('session='));
    if (session) this.session = session.slice('session='.length).split(';')[0] || undefined;
    const answer = { status: res.status, headers: res.headers, body: parseJson(text), text };
    const expected = [options.expect].flat();
    if (!expected.includes(answer.status)) {
      throw new Error(`${method} ${path} answered ${answer.status} (expected ${expected.join(' or ')}): ${text.slice(0, 300) || '(empty body)'}`);
    }
    return answer;
  }
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : undefined;
  } catch {
    return undefined;
  }
}
