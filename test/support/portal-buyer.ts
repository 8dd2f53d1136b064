import { expect, inject } from 'vitest';
import { emailsSent } from './mail.js';

/** The link of the newest portal sign-in e-mail to `email`, waiting for it. */
const SIGN_IN_LINK = /https?:\/\/\S+\/portal\/sign-in\?token=[a-z2-7]{32}/;
export async function signInLink(email: string, count = 1): Promise<string> {
  const sent = await emailsSent((mail) => mail.to.includes(email) && SIGN_IN_LINK.test(mail.text), count);
  return SIGN_IN_LINK.exec(sent.at(-1)!.text)![0];
}

type Page = { status: number; text: string; headers: Headers; cookies: string[] };

/**
 * A buyer's browser on the hosted portal (DECISIONS §25): it keeps the `portal_session` cookie, and sends its forms as a
 * browser does, form-encoded with the page's own Origin.
 */
export class PortalBuyer {
  session?: string;
  constructor(readonly baseUrl = inject('baseUrl')) {}

  async request(method: string, path: string, options: { form?: Record<string, string>; origin?: string | null } = {}): Promise<Page> {
    const headers: Record<string, string> = { accept: 'text/html' };
    if (this.session) headers.cookie = `portal_session=${this.session}`;
    const origin = options.origin === undefined ? new URL(this.baseUrl).origin : options.origin;
    if (origin && method !== 'GET') headers.origin = origin;
    if (options.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const url = path.startsWith('http') ? path : `${this.baseUrl}${path}`;
    const res = await fetch(url, { method, headers, body: options.form ? new URLSearchParams(options.form).toString() : undefined, redirect: 'manual' });
    const cookies = res.headers.getSetCookie();
    const set = cookies.find((cookie) => cookie.startsWith('portal_session='));
    if (set !== undefined) this.session = set.split(';')[0]!.slice('portal_session='.length) || undefined;
    return { status: res.status, text: await res.text(), headers: res.headers, cookies };
  }

  get = (path: string) => this.request('GET', path);
  post = (path: string, form?: Record<string, string>, origin?: string | null) => this.request('POST', path, { form, origin });

  /** Asks for a link for `email` on the page of `publicKey`, opens it from the mail and confirms: signed in. */
  async signIn(publicKey: string, email: string, count = 1) {
    const asked = await this.post('/public/v1/portal/sign-in', { email, public_key: publicKey });
    expect(asked.status, asked.text).toBe(303);
    const link = await signInLink(email, count);
    const confirmed = await this.post(link);
    expect(confirmed.status, confirmed.text).toBe(303);
    expect(this.session).toBeDefined();
    return link;
  }
}
