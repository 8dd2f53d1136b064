import { createHash } from 'node:crypto';

/**
 * HTTP Message Signatures (RFC 9421) of responses, with a Content-Digest (RFC 9530): what an answer's signature
 * covers and how its headers are written. Pure functions; `response-signer.ts` holds the keys.
 *
 *   Content-Digest: sha-256=:<base64 SHA-256 of the body bytes>:
 *   Signature-Input: sig1=("@status" "content-digest");created=<unix s>;keyid="sig_…";alg="ed25519"[;nonce="…"]
 *   Signature: sig1=:<base64 Ed25519 signature of the signature base>:
 *
 * The time is the signed `created` parameter, not the `Date` header: API Gateway, CloudFront and other proxies may
 * write their own `Date`, which would break every signature if it were covered.
 */

/** The label of the service's signature in `Signature` and `Signature-Input`. */
export const SIGNATURE_LABEL = 'sig1';
/** The components every signed answer covers, in this order. */
export const COVERED_COMPONENTS = ['@status', 'content-digest'] as const;

/** The request header a client sends its nonce in; it comes back as the signature's `nonce` parameter. */
export const NONCE_HEADER = 'signature-nonce';
/** A nonce: 1–128 characters that need no escaping in a structured-field string (base64, base64url, hex, UUIDs). */
export const NONCE_PATTERN = /^[A-Za-z0-9._~+/=-]{1,128}$/;

/** `Content-Digest` of a body (RFC 9530): SHA-256 of the exact bytes sent, as a byte sequence. */
export function contentDigest(body: Buffer): string {
  return `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
}

export type SignatureParams = { created: number; keyId: string; nonce?: string };

/** The inner list of covered components, as it is serialized. */
const COMPONENT_LIST = `(${COVERED_COMPONENTS.map((name) => `"${name}"`).join(' ')})`;

/** The `@signature-params` value, also the value of the `sig1` member of `Signature-Input`. */
export function signatureParams(params: SignatureParams): string {
  // Key ids (`sig_` + base32) and nonces (NONCE_PATTERN) hold no `"` or `\`: no escaping is needed.
  const nonce = params.nonce === undefined ? '' : `;nonce="${params.nonce}"`;
  return `${COMPONENT_LIST};created=${params.created};keyid="${params.keyId}";alg="ed25519"${nonce}`;
}

/** The signature base (RFC 9421 §2.5): one line per covered component, then `@signature-params`, joined by LF. */
export function signatureBase(message: { status: number; contentDigest: string }, params: string): string {
  return [`"@status": ${message.status}`, `"content-digest": ${message.contentDigest}`, `"@signature-params": ${params}`].join('\n');
}

/**
 * The headers that sign an answer: its digest and the signature over it and the status, made at `now` (`created`),
 * with the client's nonce among the parameters when it sent one. `sign` makes the Ed25519 signature of the base.
 */
export function signatureHeaders(
  message: { status: number; body: Buffer; now: Date; keyId: string; nonce?: string },
  sign: (base: Buffer) => Buffer,
): Record<string, string> {
  const digest = contentDigest(message.body);
  const params = signatureParams({ created: Math.floor(message.now.getTime() / 1000), keyId: message.keyId, nonce: message.nonce });
  // The signature base is ASCII (RFC 9421 §2.5): every value in it is (base64, key ids, nonces).
  const signature = sign(Buffer.from(signatureBase({ status: message.status, contentDigest: digest }, params), 'ascii'));
  return {
    'content-digest': digest,
    'signature-input': `${SIGNATURE_LABEL}=${params}`,
    signature: `${SIGNATURE_LABEL}=:${signature.toString('base64')}:`,
  };
}
