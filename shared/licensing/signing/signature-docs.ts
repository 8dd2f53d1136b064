import * as z from 'zod/mini';
import { described, idOf, named, nullableTimestamp, type OperationDoc, type ResponseDoc, timestamp } from '../../platform/openapi/index.js';
import { NONCE_PATTERN } from './http-signatures.js';

/** What the OpenAPI document says of signed answers (docs/api.md, Signed answers). */

export const SIGNED_ANSWER_HEADERS: NonNullable<ResponseDoc['headers']> = {
  signature: {
    description:
      '`sig1=:<base64>:`: the Ed25519 signature (RFC 9421) of the signature base over `@status`, `content-digest` and the ' +
      'parameters in `Signature-Input`. Sent when the product has a signing key (refusals given once the product is known are signed too).',
  },
  'signature-input': {
    description:
      '`sig1=("@status" "content-digest");created=<unix s> (when it was signed);keyid="sig_…";alg="ed25519"` and `;nonce="…"` when the request ' +
      'sent `Signature-Nonce`. `keyid` is one of the keys at `GET /public/v1/signing-key`.',
  },
  'content-digest': { description: '`sha-256=:<base64>:`: SHA-256 of the exact body bytes (RFC 9530).' },
};

/** The headers of an answer bound to its request (validate, activate, deactivate, check: DECISIONS §13). */
export const BOUND_ANSWER_HEADERS: NonNullable<ResponseDoc['headers']> = {
  ...SIGNED_ANSWER_HEADERS,
  signature: {
    description:
      '`sig1=:<base64>:`: the Ed25519 signature (RFC 9421) of the signature base over `@status`, `content-digest`, the request\'s ' +
      '`@method` and `@path` and the parameters in `Signature-Input`. Sent when the product has a signing key (refusals given once the ' +
      'product is known are signed too).',
  },
  'signature-input': {
    description:
      '`sig1=("@status" "content-digest" "@method";req "@path";req);created=<unix s> (when it was signed);keyid="sig_…";alg="ed25519"` and ' +
      '`;nonce="…"` when the request sent `Signature-Nonce`. `keyid` is one of the keys at `GET /public/v1/signing-key`.',
  },
};

/** What a signed answer bound to its request names (DECISIONS §13): a client refuses one that names another key or domain. */
export type AnswerBinding = { license_key: string; domain?: string; machine?: string };
export const BOUND_FIELDS = {
  license_key: described(z.string(), 'The request\'s `license_key`, exactly as sent: a client refuses an answer that names another.'),
  domain: z.optional(described(z.string(), 'The request\'s `domain` (or `site`), normalized; absent when it named none. A client refuses an answer that names another.')),
  machine: z.optional(described(z.string(), 'The request\'s `machine`, exactly as sent; absent when it named none. A client refuses an answer that names another.')),
};

/** The request header a client sends its nonce in. */
export const NONCE_HEADER_PARAMETER: NonNullable<OperationDoc['headerParameters']> = {
  'Signature-Nonce': {
    description:
      'A value of the client\'s choosing (1–128 of `A-Z a-z 0-9 - _ . ~ + / =`, e.g. 16 random bytes in base64url), echoed as the ' +
      'signature\'s `nonce` parameter: an answer recorded earlier cannot be replayed for this request. Malformed: 400 ' +
      '`Signature-Nonce must be 1 to 128 letters, digits or - _ . ~ + / =`.',
    pattern: NONCE_PATTERN.source,
    example: 'q3J9c0x2dW5kX2Jhbm5lcg',
  },
};

/** Appended to the description of each signed operation. */
export const SIGNED_ANSWER_NOTE =
  '\n\nThe answer is signed (RFC 9421, Ed25519) with the product\'s current key: `Signature`, `Signature-Input`, `Content-Digest`; ' +
  'send `Signature-Nonce` to have it bound to this request. Refusals are signed too once the product is known; answers ' +
  'given before (bad input, an unknown key without a `public_key`) are not.';

/** Appended to the description of each operation whose signed answers are bound to their request. */
export const BOUND_ANSWER_NOTE =
  `${SIGNED_ANSWER_NOTE} Each signed answer, refusals included, also covers the request's method and path and names its ` +
  '`license_key` (as sent) and `domain` (normalized, when the request named one): refuse one that names another, as a relay would ' +
  'hand out the answer to its own key.';

export const SigningKey = named(
  'SigningKey',
  z.object({
    keyId: idOf('sig'),
    algorithm: z.literal('ed25519'),
    publicKey: described(z.string(), 'Base64 of the raw 32-byte Ed25519 public key (PHP sodium, WebCrypto `raw`).'),
    publicKeyPem: described(z.string(), 'The same key as an SPKI PEM.'),
    createdAt: timestamp,
    expiresAt: described(nullableTimestamp, 'Null for the current key; for a rotated-out key, when verifiers stop accepting it (7 days after the rotation).'),
    current: described(z.boolean(), 'The key that signs now (the one rotated out keeps verifying during its grace period).'),
  }),
  "A product's signing key: the current one, or one rotated out less than 7 days ago.",
);
