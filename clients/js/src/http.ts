/**
 * One HTTP call with a time budget, retries and checks: the only place the client touches `fetch`.
 *
 * - The whole call, retries and waits included, ends within `timeoutMs` (default 5 s): a slow or dead service
 *   never holds the caller longer.
 * - Retried: no answer (network error, per-attempt timeout), 408, 429 and 5xx, with exponential backoff and full
 *   jitter; a 429 or 503 waits at least its `Retry-After`. Never a 4xx: those are answers.
 * - The status and content type are checked before parsing, so an HTML 502 from a proxy is a `ServerError` with its
 *   status, not a JSON syntax error.
 * - A `verifier` sees the raw bytes before anything is parsed.
 * - A call to a route the service signs carries one `Signature-Nonce`, the same on each retry: an idempotent replay
 *   answers with the first attempt's signature and nonce.
 */
import {
  LicensingError,
  NetworkError,
  RateLimitedError,
  ServerError,
  SignatureError,
  TimeoutError,
  UnexpectedResponseError,
  errorFromAnswer,
} from './errors.js';
import { randomBytes, randomNonce } from './encoding.js';
import type { ResponseVerifier } from './verify.js';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface TransportOptions {
  baseUrl: string;
  /** Budget of a whole call, retries included (ms). Default 5000. */
  timeoutMs?: number;
  /** Retries after the first attempt. Default 2. */
  retries?: number;
  /** First backoff delay (ms), doubled each retry, with full jitter. Default 200. */
  retryBaseMs?: number;
  /** Longest backoff delay (ms), `Retry-After` aside. Default 2000. */
  retryMaxMs?: number;
  fetch?: FetchLike;
  verifier?: ResponseVerifier;
  /** Extra headers on every request. */
  headers?: Record<string, string>;
  /** Called before each retry (logging, metrics). */
  onRetry?: (info: { attempt: number; delayMs: number; error: LicensingError }) => void;
}

export type RequestSpec = {
  method: 'GET' | 'POST' | 'DELETE';
  path: string;
  query?: Record<string, string | null | undefined>;
  body?: Record<string, unknown>;
  /** Sent as `Idempotency-Key`, the same on every retry of this call. */
  idempotencyKey?: string;
  /** The service signs this route's answers: a `Signature-Nonce` is sent and the verifier requires a signature. */
  signed?: boolean;
  /** Statuses whose JSON body is an answer to return rather than an error (validate's 400/403/404 refusals). */
  answerStatuses?: number[];
  signal?: AbortSignal;
  /** Overrides the transport's budget for this call. */
  timeoutMs?: number;
};

export type Answer = { status: number; headers: Headers; body: unknown };

const RETRY_STATUSES = new Set([408, 429, 500, 502, 503, 504]);
/** What the service accepts as `Signature-Nonce`. */
const NONCE_PATTERN = /^[A-Za-z0-9._~+/=-]{1,128}$/;

export class Transport {
  readonly baseUrl: string;
  private readonly options: TransportOptions;

  constructor(options: TransportOptions) {
    this.options = options;
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
  }

  url(path: string, query?: Record<string, string | null | undefined>): string {
    const url = new URL(this.baseUrl + path);
    for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined && value !== null) url.searchParams.set(name, value);
    return url.toString();
  }

  async request(spec: RequestSpec): Promise<Answer> {
    const fetchImpl = this.options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    const budget = spec.timeoutMs ?? this.options.timeoutMs ?? 5000;
    const retries = Math.max(0, this.options.retries ?? 2);
    const base = this.options.retryBaseMs ?? 200;
    const max = this.options.retryMaxMs ?? 2000;
    const deadline = Date.now() + budget;
    const url = this.url(spec.path, spec.query);
    // Messages name the route, never the query: it may carry a license key.
    const shown = this.url(spec.path);
    const headers: Record<string, string> = { accept: 'application/json', ...lowerCase(this.options.headers) };
    const body = spec.body === undefined ? undefined : JSON.stringify(spec.body);
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (spec.idempotencyKey) headers['idempotency-key'] = spec.idempotencyKey;
    // A write's nonce is its idempotency key (a fresh UUID per logical call unless the caller gives one), so even a
    // replay of a key the caller reuses across calls carries the nonce this call sent.
    if (spec.signed) headers['signature-nonce'] = spec.idempotencyKey && NONCE_PATTERN.test(spec.idempotencyKey) ? spec.idempotencyKey : randomNonce();

    for (let attempt = 0; ; attempt++) {
      let error: LicensingError;
      let retryAfterMs: number | undefined;
      const remaining = deadline - Date.now();
      if (remaining <= 0) throw new TimeoutError(`No answer from ${shown} within ${budget} ms`);
      const controller = new AbortController();
      let timedOut = false;
      const timer = setTimeout(() => {
        timedOut = true;
        controller.abort();
      }, remaining);
      const onAbort = () => controller.abort();
      spec.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        if (spec.signal?.aborted) throw abortError(spec.signal);
        let response: Response;
        let raw: Uint8Array<ArrayBuffer>;
        try {
          response = await fetchImpl(url, { method: spec.method, headers, body, signal: controller.signal });
          // Reading the body is part of the attempt: a service that sends headers and then stalls times out too.
          raw = new Uint8Array(await response.arrayBuffer());
        } catch (cause) {
          if (spec.signal?.aborted) throw abortError(spec.signal);
          throw timedOut
            ? new TimeoutError(`No answer from ${shown} within ${budget} ms`, { cause })
            : new NetworkError(`The licensing service could not be reached (${describe(cause)})`, { cause });
        }
        const status = response.status;
        const retryable = RETRY_STATUSES.has(status);
        if (!retryable && this.options.verifier) {
          try {
            await this.options.verifier.verify({
              request: { method: spec.method, url, path: spec.path, headers: { ...headers }, body },
              signed: spec.signed === true,
              status,
              headers: response.headers,
              body: raw,
            });
          } catch (cause) {
            throw cause instanceof SignatureError ? cause : new SignatureError(`The response signature is invalid (${describe(cause)})`, { status, cause });
          }
        }
        // No content (a released lease): nothing to parse.
        if (status === 204) return { status, headers: response.headers, body: undefined };
        const parsed = parseJson(response.headers, raw);
        if (status >= 200 && status < 300) {
          if (parsed === NOT_JSON) throw new UnexpectedResponseError(`Expected JSON from ${shown}, got ${contentType(response.headers) || 'no content type'} (${status})`, { status });
          return { status, headers: response.headers, body: parsed };
        }
        if (retryable) {
          const message = errorMessage(parsed) ?? `HTTP ${status} from ${shown}`;
          retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
          throw status === 429
            ? new RateLimitedError(message, { status, body: parsed === NOT_JSON ? undefined : parsed, retryAfter: retryAfterMs === undefined ? undefined : retryAfterMs / 1000 })
            : new ServerError(message, { status, body: parsed === NOT_JSON ? undefined : parsed });
        }
        if (parsed === NOT_JSON) {
          throw status >= 500 || status < 400
            ? new ServerError(`HTTP ${status} from ${shown}`, { status })
            : new UnexpectedResponseError(`Expected JSON from ${shown}, got ${contentType(response.headers) || 'no content type'} (${status})`, { status });
        }
        if (spec.answerStatuses?.includes(status)) return { status, headers: response.headers, body: parsed };
        throw errorFromAnswer(status, parsed);
      } catch (thrown) {
        if (!(thrown instanceof LicensingError)) throw thrown;
        error = thrown;
      } finally {
        clearTimeout(timer);
        spec.signal?.removeEventListener('abort', onAbort);
      }

      const again = error instanceof NetworkError || error instanceof ServerError || error instanceof RateLimitedError;
      if (!again || attempt >= retries) throw error;
      const backoff = Math.random() * Math.min(max, base * 2 ** attempt);
      const delayMs = Math.max(backoff, retryAfterMs ?? 0);
      // Never wait past the budget: a Retry-After longer than what is left ends the call with the answer we have.
      if (Date.now() + delayMs >= deadline) throw error;
      this.options.onRetry?.({ attempt: attempt + 1, delayMs, error });
      await sleep(delayMs, spec.signal);
    }
  }
}

const NOT_JSON = Symbol('not json');

function parseJson(headers: Headers, raw: Uint8Array): unknown {
  const type = contentType(headers);
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) return NOT_JSON;
  try {
    return JSON.parse(new TextDecoder().decode(raw));
  } catch {
    return NOT_JSON;
  }
}

function contentType(headers: Headers) {
  return headers.get('content-type') ?? '';
}

function errorMessage(body: unknown): string | undefined {
  return body && typeof body === 'object' && typeof (body as { error?: unknown }).error === 'string' ? (body as { error: string }).error : undefined;
}

/** `Retry-After` in ms: whole seconds, or an HTTP date. */
export function parseRetryAfter(value: string | null): number | undefined {
  if (!value) return undefined;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

function lowerCase(headers: Record<string, string> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
}

function describe(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    const inner = cause instanceof Error ? `: ${cause.message}` : '';
    return `${error.message}${inner}`;
  }
  return String(error);
}

function abortError(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted', 'AbortError');
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortError(signal!));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** A random UUID (v4): `crypto.randomUUID` where there is one, else from `randomBytes`. */
export function randomUuid(): string {
  const c = (globalThis as { crypto?: Crypto }).crypto;
  if (c && typeof c.randomUUID === 'function') return c.randomUUID();
  const bytes = randomBytes(16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
