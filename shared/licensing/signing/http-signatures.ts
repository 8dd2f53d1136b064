import { createHash } from 'node:crypto';

/**
 * HTTP Message Signatures (RFC 9421) of responses, with a Content-Digest (RFC 9530): what an answer's signature
 * covers and how its headers are written. Pure functions; `response-signer.ts` holds the keys.
 *
 *   Content-Digest: sha-256=:<base64 SHA-256 of the body bytes>:
 *   Signature-Input: sig1=("@status" "content-digest" "@method";req "@path";req);created=<unix s>;keyid="sig_…";alg="ed25519"[;nonce="…"]
 *   Signature: sig1=:<base64 Ed25519 signature of the signature base>:
 *
 * An answer bound to its request (validate, activate, deactivate, check: DECISIONS §13) also covers the request's
 * method and path (`;req`: taken from the request it answers), so it cannot pass for the answer of another operation;
 * its body names the license key and domain asked about. Other signed answers cover `@status` and `content-digest`.
 *
 * The time is the signed `created` parameter, not the `Date` header: API Gateway, CloudFront and other proxies may
 * write their own `Date`, which would break every signature if it were covered.
 */

/** The label of the service's signature in `Signature` and `Signature-Input`. */
export const SIGNATURE_LABEL = 'sig1';
/** The components every signed answer covers, in this order. */
export const COVERED_COMPONENTS = ['@status', 'content-digest'] as const;
/** The request components an answer bound to its request covers after those, in this order. */
export const REQUEST_COMPONENTS = ['@method', '@path'] as const;

/** The request header a client sends its nonce in; it comes back as the signature's `nonce` parameter. */
export const NONCE_HEADER = 'signature-nonce';
/** A nonce: 1–128 characters that need no escaping in a structured-field string (base64, base64url, hex, UUIDs). */
export const NONCE_PATTERN = /^[A-Za-z0-9._~+/=-]{1,128}$/;

/** `Content-Digest` of a body (RFC 9530): SHA-256 of the exact bytes sent, as a byte sequence. */
export function contentDigest(body: Buffer): string {
  return `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
}

export type SignatureParams = { created: number; keyId: string; nonce?: string; bound?: boolean };

/** The request an answer is bound to: its method and path (the path as the service received it, no query). */
export type AnsweredRequest = { method: string; path: string };

/** The inner lists of covered components, as they are serialized. */
const COMPONENT_LIST = COVERED_COMPONENTS.map((name) => `"${name}"`).join(' ');
const BOUND_COMPONENT_LIST = `${COMPONENT_LIST} ${REQUEST_COMPONENTS.map((name) => `"${name}";req`).join(' ')}`;

/** The `@signature-params` value, also the value of the `sig1` member of `Signature-Input`. */
export function signatureParams(params: SignatureParams): string {
  // Key ids (`sig_` + base32) and nonces (NONCE_PATTERN) hold no `"` or `\`: no escaping is needed.
  const nonce = params.nonce === undefined ? '' : `;nonce="${params.nonce}"`;
  return `(${params.bound ? BOUND_COMPONENT_LIST : COMPONENT_LIST});created=${params.created};keyid="${params.keyId}";alg="ed25519"${nonce}`;
}

/**
 * The signature base (RFC 9421 §2.5): one line per covered component (the request's, when the answer is bound to
 * it), then `@signature-params`, joined by LF.
 */
export function signatureBase(message: { status: number; contentDigest: string; request?: AnsweredRequest }, params: string): string {
  const { request } = message;
  return [
    `"@status": ${message.status}`,
    `"content-digest": ${message.contentDigest}`,
    ...(request ? [`"@method";req: ${request.method}`, `"@path";req: ${request.path}`] : []),
    `"@signature-params": ${params}`,
  ].join('\n');
}

/**
 * The headers that sign an answer: its digest and the signature over it and the status (and, given `request`, that
 * request's method and path), made at `now` (`created`), with the client's nonce among the parameters when it sent
 * one. `sign` makes the Ed25519 signature of the base.
 */
export function signatureHeaders(
  message: { status: number; body: Buffer; now: Date; keyId: string; nonce?: string; request?: AnsweredRequest },
  sign: (base: Buffer) => Buffer,
): Record<string, string> {
  const digest = contentDigest(message.body);
  const { request } = message;
  const params = signatureParams({ created: Math.floor(message.now.getTime() / 1000), keyId: message.keyId, nonce: message.nonce, bound: request !== undefined });
  // The signature base is ASCII (RFC 9421 §2.5): every value in it is (base64, key ids, nonces, the routes' paths).
  const signature = sign(Buffer.from(signatureBase({ status: message.status, contentDigest: digest, request }, params), 'ascii'));
  return {
    'content-digest': digest,
    'signature-input': `${SIGNATURE_LABEL}=${params}`,
    signature: `${SIGNATURE_LABEL}=:${signature.toString('base64')}:`,
  };
}
