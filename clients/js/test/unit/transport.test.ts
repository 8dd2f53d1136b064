import { afterEach, describe, expect, it } from 'vitest';
import {
  InvalidRequestError,
  LicenseNotFoundError,
  LicensingClient,
  NetworkError,
  RateLimitedError,
  ServerError,
  SignatureError,
  TimeoutError,
  UnexpectedResponseError,
  parseRetryAfter,
  type ResponseVerifier,
  type VerifiableResponse,
} from '../../src/index.js';
import { KEY, PK, VALID, closedPort, scriptServer, type Step } from '../support/script-server.js';

const servers: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function serve(script: Step[] | Parameters<typeof scriptServer>[0]) {
  const server = await scriptServer(script);
  servers.push(server);
  return server;
}

const ACTIVATED = { success: true, activation_id: 'act_aaaaaaaaaaaaaaaaaaaaaaaa', activated_at: '2026-01-01T00:00:00.000Z' };

async function elapsed<T>(run: () => Promise<T>): Promise<{ ms: number; value?: T; error?: unknown }> {
  const start = Date.now();
  try {
    const value = await run();
    return { ms: Date.now() - start, value };
  } catch (error) {
    return { ms: Date.now() - start, error };
  }
}

describe('time budget', () => {
  it('ends a call to a service that accepts and never answers within timeoutMs, as a TimeoutError', async () => {
    const server = await serve(['stall']);
    const client = new LicensingClient({ baseUrl: server.url, publicKey: PK, timeoutMs: 400, cache: false });
    const { ms, error } = await elapsed(() => client.activate(KEY, 'example.com'));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as TimeoutError).code).toBe('timeout');
    expect(ms).toBeGreaterThanOrEqual(390);
    expect(ms).toBeLessThan(1200);
  });

  it('times out a service that sends its headers and then stalls the body', async () => {
    const server = await serve(['stall-body']);
    const client = new LicensingClient({ baseUrl: server.url, publicKey: PK, timeoutMs: 400, cache: false });
    const { ms, error } = await elapsed(() => client.validate(KEY));
    expect(error).toBeInstanceOf(TimeoutError);
    expect(ms).toBeLessThan(1200);
  });

  it('never puts the query (a license key) in an error message', async () => {
    const server = await serve(['stall']);
    const client = new LicensingClient({ baseUrl: server.url, timeoutMs: 300, cache: false });
    const { error } = await elapsed(() => client.checkForUpdate({ slug: 'acme', licenseKey: KEY, version: '1.0.0' }));
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as Error).message).toBe(`No answer from ${server.url}/v1/wp/update-check within 300 ms`);
    const html = await serve([{ status: 502, raw: '<html></html>' }]);
    const other = new LicensingClient({ baseUrl: html.url, retries: 0, cache: false });
    const { error: bad } = await elapsed(() => other.checkForUpdate({ slug: 'acme', licenseKey: KEY, version: '1.0.0' }));
    expect((bad as Error).message).not.toContain(KEY);
  });

  it('has a 5 second budget by default', async () => {
    const server = await serve(['stall']);
    const client = new LicensingClient({ baseUrl: server.url, publicKey: PK, cache: false });
    const { ms, error } = await elapsed(() => client.plans());
    expect(error).toBeInstanceOf(TimeoutError);
    expect(ms).toBeGreaterThanOrEqual(4900);
    expect(ms).toBeLessThan(6500);
  }, 10_000);

  it('keeps retries inside the budget: a stall after a 503 still ends at timeoutMs', async () => {
    const server = await serve([{ status: 503, body: { error: 'Service temporarily unavailable' } }, 'stall']);
    const client = new LicensingClient({ baseUrl: server.url, publicKey: PK, timeoutMs: 600, retryBaseMs: 10, cache: false });
    const { ms, error } = await elapsed(() => client.plans());
    expect(error).toBeInstanceOf(TimeoutError);
    expect(server.seen).toHaveLength(2);
    expect(ms).toBeLessThan(1400);
  });

  it('lets the caller abort with its own signal (an AbortError, not a licensing error)', async () => {
    const server = await serve(['stall']);
    const client = new LicensingClient({ baseUrl: server.url, publicKey: PK, cache: false });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const { ms, error } = await elapsed(() => client.plans({ signal: controller.signal }));
    expect((error as Error).name).toBe('AbortError');
    expect(ms).toBeLessThan(1000);
  });
});

describe('retries', () => {
  it('retries 503 with backoff and succeeds, reporting each retry', async () => {
    const server = await serve([{ status: 503, body: { error: 'Service temporarily unavailable' } }, { status: 502, raw: '<html>Bad gateway</html>' }, { status: 200, body: { plans: [] } }]);
    const retries: number[] = [];
    const client = new LicensingClient({ baseUrl: server.url, publicKey: PK, retryBaseMs: 20, onRetry: ({ attempt }) => retries.push(attempt), cache: false });
    expect(await client.plans()).toEqual([]);
    expect(server.seen).toHaveLength(3);
    expect(retries).toEqual([1, 2]);
  });

  it('gives up after `retries` with a ServerError carrying the status (an HTML 502 too, without a JSON error)', async () => {
    const server = await serve([{ status: 502, raw: '<html><body>Bad gateway</body></html>' }]);
    const client = new LicensingClient({ baseUrl: server.url, publicKey: PK, retries: 2, retryBaseMs: 10, cache: false });
    const { error } = await elapsed(() => client.plans());
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).status).toBe(502);
    expect(server.seen).toHaveLength(3);
  });

  it('honours Retry-After on a 429: waits at least that long before the retry', async () => {
    const server = await serve([{ status: 429, body: { error: 'Too many requests' }, headers: { 'retry-after': '1' } }, { status: 200, body: { plans: [] } }]);
    const client = new LicensingClient({ baseUrl: server.url, publicKey: PK, retryBaseMs: 1, cache: false });
    await client.plans();
    expect(server.seen).toHaveLength(2);
    expect(server.seen[1]!.at - server.seen[0]!.at).toBeGreaterThanOrEqual(990);
  });

  it('does not wait past the budget: a Retry-After longer than what is left ends the call with RateLimitedError', async () => {
    const server = await serve([{ status: 429, body: { valid: false, error: 'Too many requests' }, headers: { 'retry-after': '30' } }]);
    const client = new LicensingClient({ baseUrl: server.url, publicKey: PK, cache: false });
    const { ms, error } = await elapsed(() => client.validate(KEY));
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).toMatchObject({ status: 429, retryAfter: 30, message: 'Too many requests', code: 'rate_limited' });
    expect(server.seen).toHaveLength(1);
    expect(ms).toBeLessThan(500);
  });

  it('honours a Retry-After given as an HTTP date', () => {
    const ms = parseRetryAfter(new Date(Date.now() + 3000).toUTCString())!;
    expect(ms).toBeGreaterThan(1500);
    expect(ms).toBeLessThanOrEqual(3000);
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter(null)).toBeUndefined();
    expect(parseRetryAfter('soon')).toBeUndefined();
  });

  it('retries a reset connection and succeeds', async () => {
    const server = await serve(['reset', { status: 200, body: { plans: [] } }]);
    const client = new LicensingClient({ baseUrl: server.url, publicKey: PK, retryBaseMs: 10, cache: false });
    expect(await client.plans()).toEqual([]);
    expect(server.seen).toHaveLength(2);
  });

  it('fails a refused connection as a NetworkError after its retries, fast', async () => {
    const client = new LicensingClient({ baseUrl: await closedPort(), publicKey: PK, retryBaseMs: 10, cache: false });
    const { ms, error } = await elapsed(() => client.activate(KEY, 'example.com'));
    expect(error).toBeInstanceOf(NetworkError);
    expect(error).not.toBeInstanceOf(TimeoutError);
    expect((error as NetworkError).code).toBe('network');
    expect(ms).toBeLessThan(1000);
  });

  it('never retries a 4xx: it is an answer', async () => {
    for (const [status, body, type] of [
      [400, { error: 'domain is required' }, InvalidRequestError],
      [404, { error: 'License key not found' }, LicenseNotFoundError],
      [409, { error: 'Conflict' }, InvalidRequestError],
    ] as const) {
      const server = await serve([{ status, body }]);
      const client = new LicensingClient({ baseUrl: server.url, publicKey: PK, cache: false });
      const { error } = await elapsed(() => client.activate(KEY, 'example.com'));
      expect(error).toBeInstanceOf(type);
      expect(error).toMatchObject({ status, message: body.error });
      expect(server.seen).toHaveLength(1);
    }
  });

  it('refuses a 2xx that is not JSON (a captive portal, a proxy page) as UnexpectedResponseError', async () => {
    const server = await serve([{ status: 200, raw: '<html>Sign in to the Wi-Fi</html>' }]);
    const client = new LicensingClient({ baseUrl: server.url, publicKey: PK, cache: false });
    const { error } = await elapsed(() => client.plans());
    expect(error).toBeInstanceOf(UnexpectedResponseError);
    expect(server.seen).toHaveLength(1);
  });
});

describe('Idempotency-Key', () => {
  it('is one random UUID per logical activate or deactivate, the same on every retry of that call', async () => {
    const server = await serve((_seen, index) =>
      index % 2 === 0 ? { status: 503, body: { error: 'Service temporarily unavailable' } } : { status: 200, body: index < 2 ? ACTIVATED : { success: true } },
    );
    const client = new LicensingClient({ baseUrl: server.url, publicKey: PK, retryBaseMs: 5, cache: false });
    await client.activate(KEY, 'example.com');
    await client.deactivate(KEY, 'example.com');
    const keys = server.seen.map((s) => s.headers['idempotency-key'] as string);
    expect(keys[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(keys[1]).toBe(keys[0]);
    expect(keys[3]).toBe(keys[2]);
    expect(keys[2]).not.toBe(keys[0]);
  });

  it('is not sent on reads', async () => {
    const server = await serve([{ status: 200, body: VALID }]);
    const client = new LicensingClient({ baseUrl: server.url, publicKey: PK, cache: false });
    await client.validate(KEY);
    expect(server.seen[0]!.headers['idempotency-key']).toBeUndefined();
  });

  it('can be given by the caller to make a repeated logical call idempotent', async () => {
    const server = await serve([{ status: 200, body: ACTIVATED }]);
    const client = new LicensingClient({ baseUrl: server.url, publicKey: PK, cache: false });
    await client.activate(KEY, 'example.com', { idempotencyKey: 'my-key-1' });
    expect(server.seen[0]!.headers['idempotency-key']).toBe('my-key-1');
  });
});

describe('Signature-Nonce', () => {
  it('is one per logical call on the routes the service signs, the same on every retry; a write\'s is its Idempotency-Key', async () => {
    const down = { status: 503, body: { error: 'Service temporarily unavailable' } };
    const server = await serve([down, { status: 200, body: VALID }, { status: 200, body: VALID }, down, { status: 200, body: ACTIVATED }, { status: 200, body: { plans: [] } }]);
    const client = new LicensingClient({ baseUrl: server.url, publicKey: PK, retryBaseMs: 5, cache: false });
    await client.validate(KEY);
    await client.validate(KEY);
    await client.activate(KEY, 'example.com');
    await client.plans();
    const nonces = server.seen.map((s) => s.headers['signature-nonce']);
    expect(nonces[0]).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(nonces[1]).toBe(nonces[0]);
    expect(nonces[2]).not.toBe(nonces[0]);
    expect(nonces[3]).toBe(server.seen[3]!.headers['idempotency-key']);
    expect(nonces[4]).toBe(nonces[3]);
    expect(nonces[5]).toBeUndefined();
  });
});

describe('response verifier', () => {
  it('sees the raw bytes and the request before anything is parsed', async () => {
    const server = await serve([{ status: 200, body: VALID, headers: { signature: 'sig1=:abc:' } }]);
    const seen: VerifiableResponse[] = [];
    const verifier: ResponseVerifier = { verify: (response) => void seen.push(response) };
    const client = new LicensingClient({ baseUrl: server.url, publicKey: PK, verifier, cache: false });
    await client.validate(KEY, { domain: 'example.com' });
    expect(seen).toHaveLength(1);
    expect(new TextDecoder().decode(seen[0]!.body)).toBe(JSON.stringify(VALID));
    expect(seen[0]!.headers.get('signature')).toBe('sig1=:abc:');
    expect(seen[0]!.request).toMatchObject({ method: 'POST', url: `${server.url}/public/v1/licenses/validate` });
    expect(JSON.parse(seen[0]!.request.body!)).toMatchObject({ public_key: PK, license_key: KEY, domain: 'example.com' });
  });

  it('turns a refusal into a SignatureError that is neither retried nor served from the cache', async () => {
    const server = await serve([{ status: 200, body: VALID }]);
    let refuse = false;
    const verifier: ResponseVerifier = {
      verify: () => {
        if (refuse) throw new Error('no Signature header');
      },
    };
    const client = new LicensingClient({ baseUrl: server.url, publicKey: PK, verifier });
    expect((await client.validate(KEY)).valid).toBe(true);
    refuse = true;
    const { error } = await elapsed(() => client.validate(KEY));
    expect(error).toBeInstanceOf(SignatureError);
    expect((error as Error).message).toContain('no Signature header');
    expect(server.seen).toHaveLength(2);
  });
});

it('sends JSON with the public key, the client version and extra headers', async () => {
  const server = await serve([{ status: 200, body: ACTIVATED }]);
  const client = new LicensingClient({ baseUrl: `${server.url}/`, publicKey: PK, version: '2.1.0', productSlug: 'acme', headers: { 'X-Site': 'test' }, cache: false });
  await client.activate(KEY, 'https://www.example.com/shop', { environment: 'staging' });
  const [request] = server.seen;
  expect(request!.url).toBe('/public/v1/licenses/activate');
  expect(request!.headers['content-type']).toBe('application/json');
  expect(request!.headers['x-site']).toBe('test');
  expect(JSON.parse(request!.body)).toEqual({
    public_key: PK,
    license_key: KEY,
    domain: 'https://www.example.com/shop',
    product_slug: 'acme',
    version: '2.1.0',
    environment: 'staging',
  });
});

it('surfaces environment when the service reports it', async () => {
  const server = await serve([
    { status: 200, body: { ...ACTIVATED, environment: 'staging' } },
    { status: 200, body: { activated: true, activation_id: ACTIVATED.activation_id, environment: 'staging' } },
    { status: 200, body: { ...VALID, license: { ...VALID.license, environment: 'staging' } } },
  ]);
  const client = new LicensingClient({ baseUrl: server.url, publicKey: PK, cache: false });
  expect((await client.activate(KEY, 'staging.example.com')).environment).toBe('staging');
  expect((await client.check(KEY, 'staging.example.com')) as { environment?: string }).toMatchObject({ activated: true, environment: 'staging' });
  expect(await client.validate(KEY)).toMatchObject({ valid: true, environment: 'staging' });
});

it('refuses a base URL that is not http(s), and calls without a public key', async () => {
  expect(() => new LicensingClient({ baseUrl: 'licenses.example.com' })).toThrow(TypeError);
  const client = new LicensingClient({ baseUrl: 'https://licenses.example.com' });
  await expect(client.validate(KEY)).rejects.toThrow(/publicKey is required/);
  expect(() => client.checkoutUrl({ plan: 'pro' })).toThrow(/publicKey is required/);
});
