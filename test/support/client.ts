import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { localData } from './table.js';

export const DASHBOARD_ORIGIN = 'http://dashboard.test';

export type Response = { status: number; headers: Headers; body: any; text: string; cookies: string[] };

type RequestOptions = {
  body?: unknown;
  rawBody?: RequestInit['body'];
  headers?: Record<string, string>;
  /** `null` sends no Origin header. */
  origin?: string | null;
};

/** A small HTTP client for the local stack that keeps the session and device cookies like a browser would. */
export class Client {
  cookie?: string;
  /** The `device` cookie, set at a sign-in (DECISIONS §20: a browser known to an account). */
  device?: string;
  bearer?: string;

  constructor(readonly baseUrl = inject('baseUrl')) {}

  async request(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined) headers['content-type'] ??= 'application/json';
    const held = [this.cookie && `session=${this.cookie}`, this.device && `device=${this.device}`].filter(Boolean);
    if (held.length) headers.cookie = held.join('; ');
    if (this.bearer) headers.authorization = `Bearer ${this.bearer}`;
    const origin = options.origin === undefined ? DASHBOARD_ORIGIN : options.origin;
    if (origin) headers.origin = origin;
    const res = await fetch(`${this.baseUrl}${path}`, {
      method,
      headers,
      body: options.rawBody ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
      redirect: 'manual',
    });
    const text = await res.text();
    let body: unknown = undefined;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = text;
    }
    const cookies = res.headers.getSetCookie();
    const valueOf = (name: string) => {
      const line = cookies.find((c) => c.startsWith(`${name}=`));
      return line === undefined ? undefined : line.split(';')[0]!.slice(name.length + 1);
    };
    const session = valueOf('session');
    if (session !== undefined) this.cookie = session || undefined;
    const device = valueOf('device');
    if (device !== undefined) this.device = device || undefined;
    return { status: res.status, headers: res.headers, body, text, cookies };
  }

  get = (path: string, options?: RequestOptions) => this.request('GET', path, options);
  post = (path: string, body?: unknown, options?: RequestOptions) => this.request('POST', path, { ...options, body });
  put = (path: string, body?: unknown, options?: RequestOptions) => this.request('PUT', path, { ...options, body });
  patch = (path: string, body?: unknown, options?: RequestOptions) => this.request('PATCH', path, { ...options, body });
  delete = (path: string, options?: RequestOptions) => this.request('DELETE', path, options);
}

export const uniqueEmail = (label = 'dev') => `${label}-${randomUUID().slice(0, 12)}@example.com`;

export type Tenant = Client & { email: string; password: string; userId: string };

/**
 * Registers a new developer (a tenant of its own) and returns a client logged in as them, with the address not yet
 * verified: as just after registering, when a Google or GitHub sign-in with the address would take the account over.
 */
export async function unverifiedTenant(): Promise<Tenant> {
  const client = new Client();
  const email = uniqueEmail();
  const password = 'correct horse battery';
  const res = await client.post('/api/auth/register', { email, password, name: 'Dev' });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  return Object.assign(client, { email, password, userId: res.body.user.id as string });
}

/**
 * A new developer whose address is verified, as a vendor's is once they open the link e-mailed at registration (what
 * that link does is the same write: test/integration/identity/email-verification.test.ts opens it): the routes of
 * DECISIONS §20 (webhooks, the team, the payment provider, imports and exports) need it. Made in the table rather than by
 * waiting for the e-mail, which every test's tenant would otherwise wait for.
 */
export async function newTenant(): Promise<Tenant> {
  const tenant = await unverifiedTenant();
  await localData().entities.user.patch({ userId: tenant.userId }).set({ emailVerified: true }).go();
  return tenant;
}
