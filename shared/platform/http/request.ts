import { BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../errors.js';
import type { HttpEvent } from './types.js';

/** JSON bodies above this are refused before parsing. */
export const JSON_BODY_LIMIT_BYTES = 256 * 1024;

export function header(event: HttpEvent, name: string): string | undefined {
  return event.headers?.[name.toLowerCase()];
}

export function rawBody(event: HttpEvent): Buffer {
  if (!event.body) return Buffer.alloc(0);
  return Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8');
}

function isJsonContentType(value: string | undefined): boolean {
  if (!value) return false;
  const type = value.split(';')[0]!.trim().toLowerCase();
  return type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type);
}

/**
 * Bodies already parsed, by their event: a signed answer reads its request's body again (the key and domain it binds
 * to, shared/licensing/signing/signed-answers.ts), as does an idempotent route's scope; each gets the one parse.
 */
const parsedBodies = new WeakMap<HttpEvent, object>();

/**
 * The request's JSON object body; an absent body reads as `{}` so that schemas report missing fields.
 * A body over `limitBytes` is 413; of another type 415; malformed JSON, or JSON that is not an object, 400.
 * A text body (what API Gateway hands over for JSON) is measured and parsed as it is, not copied into bytes and back.
 * The object is the same on every call for one event: read it, never change it.
 */
export function jsonBody(event: HttpEvent, limitBytes = JSON_BODY_LIMIT_BYTES): unknown {
  const size = event.isBase64Encoded ? Buffer.byteLength(event.body ?? '', 'base64') : Buffer.byteLength(event.body ?? '', 'utf8');
  if (size === 0) return {};
  if (size > limitBytes) throw new PayloadTooLargeError();
  if (!isJsonContentType(header(event, 'content-type'))) throw new UnsupportedMediaTypeError();
  const known = parsedBodies.get(event);
  if (known) return known;
  let parsed: unknown;
  try {
    parsed = JSON.parse(event.isBase64Encoded ? rawBody(event).toString('utf8') : event.body!);
  } catch {
    throw new BadRequestError('Malformed JSON body');
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new BadRequestError('Request body must be a JSON object');
  }
  parsedBodies.set(event, parsed);
  return parsed;
}

/** Query parameters as API Gateway gives them (repeated keys joined by commas). */
export function query(event: HttpEvent): Record<string, string> {
  return { ...(event.queryStringParameters as Record<string, string> | undefined) };
}

export function requestBaseUrl(event: HttpEvent, configured: string | undefined): string {
  if (configured) return configured;
  const proto = header(event, 'x-forwarded-proto') ?? 'https';
  return `${proto}://${event.requestContext.domainName}`;
}
