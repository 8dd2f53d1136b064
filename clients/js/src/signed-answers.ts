/**
 * Checks the service's signed answers (RFC 9421 HTTP Message Signatures, Ed25519; docs/api.md "Signed answers"),
 * with WebCrypto alone. Exactly what the service signs is required:
 *
 *   Content-Digest: sha-256=:<base64 SHA-256 of the body bytes>:
 *   Signature-Input: sig1=("@status" "content-digest" "@method";req "@path";req);created=<unix s>;keyid="sig_…";alg="ed25519";nonce="…"
 *   Signature: sig1=:<base64 Ed25519 signature of the signature base>:
 *
 * The digest must match the raw body, `created` must be near the client's clock, the nonce must be the
 * one this call sent, and the key one the client trusts. The answers of validate, activate, deactivate and check are
 * bound to their request: the signature covers its method and path (`;req`), and the body must name the license key
 * this call sent and the domain it named, so the answer a relay got for its own key or site does not pass. Other
 * signed answers (offline files, the update check) cover `@status` and `content-digest` only.
 */
import { normalizeDomain } from './domain.js';
import { ascii, fromBase64, toBase64 } from './encoding.js';
import { InvalidPublicKeyError, InvalidRequestError, ProductNotFoundError, SignatureError, errorFromAnswer, type SignatureReason } from './errors.js';
import type { SigningKeys } from './signing-keys.js';
import type { ResponseVerifier, VerifiableResponse } from './verify.js';

const LABEL = 'sig1';
const COMPONENTS = '("@status" "content-digest")';
const BOUND_COMPONENTS = '("@status" "content-digest" "@method";req "@path";req)';
/** The operations whose answers are bound to their request (DECISIONS §13), on `/v1` and `/public/v1`. */
const BOUND_PATH = /^(\/public)?\/v1\/licenses\/(validate|activate|deactivate|check|leases|leases\/[^/]+\/heartbeat)$/;
const PARAM = /;([a-z]+)=(\d+|"[A-Za-z0-9._~+/=-]*")/g;

export class SignedAnswerVerifier implements ResponseVerifier {
  constructor(
    private readonly keys: SigningKeys,
    private readonly options: { now: () => number; maxSkewSeconds?: number },
  ) {}

  async verify(response: VerifiableResponse): Promise<void> {
    if (!response.signed) return;
    const refuse = (reason: SignatureReason, message: string) => new SignatureError(message, { status: response.status, reason });
    const input = member(response.headers.get('signature-input'), LABEL);
    const signatureValue = member(response.headers.get('signature'), LABEL);
    if (input === undefined || signatureValue === undefined) {
      if (isUnsignedByDesign(response)) return;
      throw refuse('unsigned', 'The answer is not signed');
    }
    const { request } = response;
    const bound = request.method === 'POST' && BOUND_PATH.test(request.path);
    const params = parseParams(input, bound ? BOUND_COMPONENTS : COMPONENTS);
    if (params.alg !== 'ed25519' || typeof params.keyid !== 'string' || typeof params.created !== 'number') {
      throw refuse('malformed', `Unexpected signature parameters: ${input}`);
    }
    const sentNonce = request.headers['signature-nonce'];
    if (sentNonce !== undefined && params.nonce !== sentNonce) throw refuse('wrong_nonce', 'The answer is signed for another request (nonce)');

    const digest = response.headers.get('content-digest');
    const expected = `sha-256=:${toBase64(new Uint8Array(await this.keys.subtle.digest('SHA-256', response.body)))}:`;
    if (member(digest, 'sha-256') !== expected.slice('sha-256='.length)) throw refuse('tampered', 'Content-Digest does not match the body');

    const skewMs = (this.options.maxSkewSeconds ?? 300) * 1000;
    if (Math.abs(this.options.now() - params.created * 1000) > skewMs) throw refuse('stale', 'The answer is too old, or the clock is off');

    const key = await this.keys.find(params.keyid, { refresh: true });
    if (!key) throw refuse('unknown_key', `The answer is signed by an unknown key (${params.keyid})`);
    const signature = fromBase64(signatureValue.replace(/^:|:$/g, ''));
    const base = [
      `"@status": ${response.status}`,
      `"content-digest": ${digest}`,
      ...(bound ? [`"@method";req: ${request.method}`, `"@path";req: ${request.path}`] : []),
      `"@signature-params": ${input}`,
    ].join('\n');
    if (!signature || signature.length !== 64 || !(await this.keys.subtle.verify({ name: 'Ed25519' }, key, signature, ascii(base)))) {
      throw refuse('tampered', 'The answer signature does not verify');
    }
    if (bound) {
      const mismatch = bindingMismatch(request.body, response.body);
      if (mismatch) throw refuse(`wrong_${mismatch}`, `The answer is signed for another request (${mismatch})`);
    }
  }
}

/**
 * Which field of a bound answer names something else than the request did: the license key exactly as sent, and the
 * domain normalized as the service normalizes it (`domain`, else `site`; none named, none answered).
 */
function bindingMismatch(requestBody: string | undefined, answerBody: Uint8Array): 'license_key' | 'domain' | 'machine' | undefined {
  const sent = parseObject(requestBody ?? '{}');
  const answer = parseObject(new TextDecoder().decode(answerBody));
  if (!sent || !answer || typeof sent.license_key !== 'string' || answer.license_key !== sent.license_key) return 'license_key';
  // A machine is named exactly as sent (trimmed, as the service reads it).
  const machine = typeof sent.machine === 'string' && sent.machine.trim() !== '' ? sent.machine.trim() : undefined;
  if (answer.machine !== machine) return 'machine';
  const named = [sent.domain, sent.site].find((value): value is string => typeof value === 'string' && value.trim() !== '');
  return answer.domain === (named === undefined ? undefined : normalizeDomain(named)) ? undefined : 'domain';
}

function parseObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** A member of a structured-field dictionary (`label=value, …`), as written; the service's values hold no commas. */
function member(header: string | null, label: string): string | undefined {
  for (const part of (header ?? '').split(',')) {
    const trimmed = part.trim();
    if (trimmed.startsWith(`${label}=`)) return trimmed.slice(label.length + 1);
  }
  return undefined;
}

/** The parameters of `sig1`'s inner list, which must cover exactly `components`, what the service signs for the route. */
function parseParams(input: string, components: string): Record<string, string | number> {
  if (!input.startsWith(components)) return {};
  const rest = input.slice(components.length);
  const params: Record<string, string | number> = {};
  let consumed = 0;
  for (const match of rest.matchAll(PARAM)) {
    if (match.index !== consumed) return {};
    consumed += match[0].length;
    const value = match[2]!;
    params[match[1]!] = value.startsWith('"') ? value.slice(1, -1) : Number(value);
  }
  return consumed === rest.length ? params : {};
}

/**
 * The answers the service gives before it knows the product, which it cannot sign (docs/api.md): a 429, and
 * refusals of the request itself (bad input, an unknown public key, the update check's unknown slug). Every other
 * unsigned answer, a "valid" or a license refusal above all, is refused.
 */
function isUnsignedByDesign(response: VerifiableResponse): boolean {
  if (response.status === 429) return true;
  if (response.status < 400 || response.status >= 500) return false;
  let body: unknown;
  try {
    body = JSON.parse(new TextDecoder().decode(response.body));
  } catch {
    return false;
  }
  const error = errorFromAnswer(response.status, body);
  return error instanceof InvalidRequestError || error instanceof InvalidPublicKeyError || error instanceof ProductNotFoundError;
}
