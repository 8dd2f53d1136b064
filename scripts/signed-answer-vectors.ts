/**
 * Writes the signed answer test vectors (`docs/test-vectors/signed-answers/*.json`) that client libraries verify
 * against: `npx tsx scripts/signed-answer-vectors.ts` (add `--check` to compare only). Each is a request as a client
 * sent it and an answer signed by the service's own code (shared/licensing/signing/http-signatures.ts) with a fixed key from a
 * public seed, so they come out the same every time; the seed is for the vectors alone and signs nothing else.
 */
import { sign } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { signatureHeaders, type AnsweredRequest } from '../shared/licensing/signing/http-signatures.js';
import { keyFromSeed, serializeVector, writeVectors } from './test-vectors.js';

export const VECTORS_DIR = fileURLToPath(new URL('../docs/test-vectors/signed-answers/', import.meta.url));

const KEY_ID = 'sig_testvectorskeyaaaaaaaaaa';
const OTHER_KEY_ID = 'sig_testvectorskeybbbbbbbbbb';
const PUBLIC_KEY = 'pk_testvectorspublickeyaaaaaaaaa';
const LICENSE_KEY = 'ACME-SEO-ABCD-EFGH-JKLM-NPQR';
const RELAY_KEY = 'ACME-SEO-WXYZ-2345-6789-ABCD';
const NONCE = 'q3J9c0x2dW5kX2Jhbm5lcg';
const SIGNED_AT = new Date('2026-03-10T08:30:00.000Z');

/** What a client checks a signed answer against: what it sent, what it got, the keys it trusts and its clock. */
type Vector = {
  description: string;
  /** The request as the client sent it: `path` is the route's own (no base-URL prefix, no query), `body` the exact JSON. */
  request: { method: string; path: string; headers: Record<string, string>; body: string | null };
  /** The answer exactly as received. */
  response: { status: number; headers: Record<string, string>; body: string };
  /** The keys the client knows (`GET /public/v1/signing-key`): key id and base64 of the raw 32-byte public key. */
  publicKeys: { keyId: string; publicKey: string }[];
  now: string;
  /** `valid`, or why the client refuses the answer (the `reason` of the clients' SignatureError). */
  expected: 'valid' | 'unsigned' | 'malformed' | 'tampered' | 'wrong_nonce' | 'stale' | 'unknown_key' | 'wrong_license_key' | 'wrong_domain';
};

type Sent = { method: string; path: string; body: object | null };

export function buildVectors(): Record<string, Vector> {
  const key = keyFromSeed('licensing-service signed answer test vectors: key a');
  const other = keyFromSeed('licensing-service signed answer test vectors: key b');
  const publicKeys = [{ keyId: KEY_ID, publicKey: key.publicKey }];

  /** The answer the service gives to `sent`: `answer` as its body, signed (bound to `boundTo`, the request it answers, when given). */
  const exchange = (
    sent: Sent,
    status: number,
    answer: object,
    options: { boundTo?: AnsweredRequest; signer?: typeof key; keyId?: string; nonce?: string | null } = {},
  ) => {
    const body = JSON.stringify(answer);
    const nonce = options.nonce === null ? undefined : (options.nonce ?? NONCE);
    const headers = signatureHeaders(
      { status, body: Buffer.from(body), now: SIGNED_AT, keyId: options.keyId ?? KEY_ID, nonce, request: options.boundTo },
      (base) => sign(null, base, (options.signer ?? key).privateKey),
    );
    return {
      request: { method: sent.method, path: sent.path, headers: { 'signature-nonce': NONCE }, body: sent.body === null ? null : JSON.stringify(sent.body) },
      response: { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body },
      publicKeys,
      now: '2026-03-10T08:31:00.000Z',
    };
  };
  const bound = (sent: Sent) => ({ method: sent.method, path: sent.path });

  const validate: Sent = {
    method: 'POST',
    path: '/public/v1/licenses/validate',
    body: { public_key: PUBLIC_KEY, license_key: LICENSE_KEY, product_slug: 'acme-seo', domain: 'https://WWW.Shop.Example.com:8443/wp' },
  };
  const valid = {
    valid: true,
    license: { key: LICENSE_KEY, status: 'active', seats: 3, activatedCount: 1, stagingCount: 0, expiresAt: '2027-01-15T00:00:00.000Z' },
    product: { id: 'prd_testvectorsproductaaaaaa', name: 'Acme SEO', slug: 'acme-seo' },
  };
  const validAnswer = exchange(validate, 200, { ...valid, license_key: LICENSE_KEY, domain: 'shop.example.com' }, { boundTo: bound(validate) });
  const activate: Sent = { method: 'POST', path: '/public/v1/licenses/activate', body: { public_key: PUBLIC_KEY, license_key: LICENSE_KEY, domain: 'https://Bücher.example/shop' } };
  const activated = { success: true, activation_id: 'act_testvectorsactivationaaa', activated_at: '2026-03-10T08:30:00.000Z', environment: 'production' };
  const deactivateById: Sent = { method: 'POST', path: '/v1/licenses/deactivate', body: { license_key: LICENSE_KEY, activation_id: 'act_testvectorsactivationaaa' } };
  const validateBare: Sent = { method: 'POST', path: '/public/v1/licenses/validate', body: { public_key: PUBLIC_KEY, license_key: LICENSE_KEY } };
  const check: Sent = { method: 'POST', path: '/public/v1/licenses/check', body: { public_key: PUBLIC_KEY, license_key: LICENSE_KEY, domain: 'shop.example.com' } };
  const updateCheck: Sent = { method: 'GET', path: '/v1/wp/update-check', body: null };

  return {
    valid: {
      description: 'A validate answer as the service gives it: signed over the status, digest, request method and path; naming the key as sent and the domain normalized.',
      ...validAnswer,
      expected: 'valid',
    },
    'valid-refusal': {
      description: 'A signed refusal (a suspended license) of a validate that named no domain: it names the key, and no domain.',
      ...exchange(validateBare, 400, { valid: false, error: 'License is suspended', license_key: LICENSE_KEY }, { boundTo: bound(validateBare) }),
      expected: 'valid',
    },
    'valid-international-domain': {
      description: 'An activate of an international domain: the answer names it in punycode, as the service normalizes it.',
      ...exchange(activate, 200, { ...activated, license_key: LICENSE_KEY, domain: 'xn--bcher-kva.example' }, { boundTo: bound(activate) }),
      expected: 'valid',
    },
    'valid-edge-deactivate': {
      description: 'A deactivate on the edge (/v1) by activation id: bound to its own path, naming the key and no domain.',
      ...exchange(deactivateById, 200, { success: true, license_key: LICENSE_KEY }, { boundTo: bound(deactivateById) }),
      expected: 'valid',
    },
    'valid-update-check': {
      description: 'The update check is signed but not bound to its request: it covers the status and the digest only.',
      ...exchange(updateCheck, 200, { name: 'Acme SEO', slug: 'acme-seo', version: '1.2.0', new_version: '1.2.0' }),
      expected: 'valid',
    },
    'wrong-license-key': {
      description: "A relay asked with its own key and passed on the service's genuine answer: signed, but naming another key than the one sent.",
      ...exchange(validate, 200, { ...valid, license: { ...valid.license, key: RELAY_KEY }, license_key: RELAY_KEY, domain: 'shop.example.com' }, { boundTo: bound(validate) }),
      expected: 'wrong_license_key',
    },
    'wrong-domain': {
      description: "A relay asked about its own site: the service's genuine check answer names another domain than the one sent.",
      ...exchange(check, 200, { activated: true, activation_id: 'act_testvectorsactivationaaa', license_key: LICENSE_KEY, domain: 'relay.example.net' }, { boundTo: bound(check) }),
      expected: 'wrong_domain',
    },
    'domain-not-asked': {
      description: 'An answer naming a domain, for a request that named none.',
      ...exchange(validateBare, 200, { ...valid, license_key: LICENSE_KEY, domain: 'relay.example.net' }, { boundTo: bound(validateBare) }),
      expected: 'wrong_domain',
    },
    'other-operation': {
      description: 'The answer of a check (`activated: true`), signed for its own path, handed to an activate: the signature base differs.',
      ...exchange(check, 200, { activated: true, activation_id: 'act_testvectorsactivationaaa', license_key: LICENSE_KEY, domain: 'xn--bcher-kva.example' }, { boundTo: bound(check) }),
      request: exchange(activate, 200, {}).request,
      expected: 'tampered',
    },
    unbound: {
      description: 'A validate answer signed over the status and digest alone: answers of validate, activate, deactivate and check must cover their request.',
      ...exchange(validate, 200, { ...valid, license_key: LICENSE_KEY, domain: 'shop.example.com' }),
      expected: 'malformed',
    },
    'tampered-body': {
      description: 'The body changed after signing (3 seats made 9): the digest does not match.',
      ...validAnswer,
      response: { ...validAnswer.response, body: validAnswer.response.body.replace('"seats":3', '"seats":9') },
      expected: 'tampered',
    },
    'wrong-nonce': {
      description: 'An answer recorded earlier, signed with the nonce of another request.',
      ...exchange(validate, 200, { ...valid, license_key: LICENSE_KEY, domain: 'shop.example.com' }, { boundTo: bound(validate), nonce: 'an-earlier-nonce' }),
      expected: 'wrong_nonce',
    },
    stale: {
      description: 'Checked an hour after it was signed (more than the 300 s the clients allow by default).',
      ...validAnswer,
      now: '2026-03-10T09:30:00.000Z',
      expected: 'stale',
    },
    'unknown-key': {
      description: 'Signed by a key the client does not know.',
      ...exchange(validate, 200, { ...valid, license_key: LICENSE_KEY, domain: 'shop.example.com' }, { boundTo: bound(validate), signer: other, keyId: OTHER_KEY_ID }),
      expected: 'unknown_key',
    },
    unsigned: {
      description: 'A "valid" with no signature: only answers given before the service knows the product may be unsigned.',
      ...validAnswer,
      response: { ...validAnswer.response, headers: { 'content-type': 'application/json; charset=utf-8' } },
      expected: 'unsigned',
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeVectors(VECTORS_DIR, buildVectors(), { check: process.argv.includes('--check'), script: 'scripts/signed-answer-vectors.ts' });
}

export { serializeVector };
