import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';

export const DASHBOARD_ORIGIN = 'http://dashboard.test';

export type Response = { status: number; headers: Headers; body: any; text: string; cookies: string[] };

type RequestOptions = {
  body?: unknown;
  rawBody?: RequestInit['body'];
  headers?: Record<string, string>;
  /** `null` sends no Origin header. */
  origin?: string | null;
};

/** A small HTTP client for the local stack that keeps the session cookie like a browser would. */
export class Client {
  cookie?: string;
  bearer?: string;

  constructor(readonly baseUrl = inject('baseUrl')) {}

  async request(method: string, path: string, options: RequestOptions = {}): Promise<Response> {
    const headers: Record<string, string> = { ...options.headers };
    if (options.body !== undefined) headers['content-type'] ??= 'application/json';
    if (this.cookie) headers.cookie = `session=${this.cookie}`;
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
    const session = cookies.find((c) => c.startsWith('session='));
    if (session) {
      const value = session.split(';')[0]!.slice('session='.length);
      this.cookie = value || undefined;
    }
    return { status: res.status, headers: res.headers, body, text, cookies };
  }

  get = (path: string, options?: RequestOptions) => this.request('GET', path, options);
  post = (path: string, body?: unknown, options?: RequestOptions) => this.request('POST', path, { ...options, body });
  put = (path: string, body?: unknown, options?: RequestOptions) => this.request('PUT', path, { ...options, body });
  patch = (path: string, body?: unknown, options?: RequestOptions) => this.request('PATCH', path, { ...options, body });
  delete = (path: string, options?: RequestOptions) => this.request('DELETE', path, options);
}

export const uniqueEmail = (label = 'dev') => `${label}-${randomUUID().slice(0, 12)}@example.com`;

/** Registers a new developer (a tenant of its own) and returns a client logged in as them. */
export async function newTenant(): Promise<Client & { email: string; password: string; userId: string }> {
  const client = new Client();
  const email = uniqueEmail();
  const password = 'correct horse battery';
  const res = await client.post('/api/auth/register', { email, password, name: 'Dev' });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  return Object.assign(client, { email, password, userId: res.body.user.id as string });
}
