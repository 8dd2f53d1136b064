/** A cookie as a browser keeps it: its value and the path it is sent to. */
type StoredCookie = { value: string; path: string };

export type BrowserResponse = { status: number; location: string | null; body: any; text: string; setCookies: string[] };

/**
 * A small browser for redirect flows: follows nothing by itself, and keeps the cookies one origin sets (honouring
 * `Path` and `Max-Age=0`), sending them back to that origin only; other hosts (a fake provider) get none.
 */
export class Browser {
  readonly cookies = new Map<string, StoredCookie>();

  constructor(readonly origin: string) {}

  async get(url: string, headers: Record<string, string> = {}): Promise<BrowserResponse> {
    const target = new URL(url, this.origin);
    const own = target.origin === new URL(this.origin).origin;
    const cookie = own ? this.cookieHeader(target.pathname) : '';
    const res = await fetch(target, { redirect: 'manual', headers: { ...headers, ...(cookie && { cookie }) } });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON
    }
    const setCookies = res.headers.getSetCookie();
    if (own) for (const line of setCookies) this.store(line);
    return { status: res.status, location: res.headers.get('location'), body, text, setCookies };
  }

  /** The value of a cookie this browser holds, if any. */
  cookie(name: string): string | undefined {
    return this.cookies.get(name)?.value;
  }

  private cookieHeader(path: string): string {
    return [...this.cookies]
      .filter(([, c]) => path === c.path || path.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`))
      .map(([name, c]) => `${name}=${c.value}`)
      .join('; ');
  }

  private store(line: string): void {
    const [pair, ...attributes] = line.split(';').map((part) => part.trim());
    const [name, ...rest] = pair!.split('=');
    const attribute = (key: string) => attributes.find((a) => a.toLowerCase().startsWith(`${key.toLowerCase()}=`))?.split('=')[1];
    if (attribute('Max-Age') === '0') this.cookies.delete(name!);
    else this.cookies.set(name!, { value: rest.join('='), path: attribute('Path') ?? '/' });
  }
}
