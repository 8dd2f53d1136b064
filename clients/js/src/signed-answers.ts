/**
 * Checks the service's signed answers (RFC 9421 HTTP Message Signatures, Ed25519; docs/api.md "Signed answers"),
 * with WebCrypto alone. Exactly what the service signs is required:
 *
 *   Content-Digest: sha-256=:<base64 SHA-256 of the body bytes>:
 *   Signature-Input: sig1=("@status" "content-digest");created=<unix s>;keyid="sig_…";alg="ed25519";nonce="…"
 *   Signature: sig1=:<base64 Ed25519 signature of the signature base>:
 *
 * The digest must match the raw body, `created` must be near the client's clock, the nonce must be the
 * one this call sent, and the key one the client trusts.
 */
import { ascii, fromBase64, toBase64 } from './encoding.js';
import { InvalidPublicKeyError, InvalidRequestError, ProductNotFoundError, SignatureError, errorFromAnswer } from './errors.js';
import type { SigningKeys } from './signing-keys.js';
import type { ResponseVerifier, VerifiableResponse } from './verify.js';

const LABEL = 'sig1';
const COMPONENTS = '("@status" "content-digest")';
const PARAM = /;([a-z]+)=(\d+|"[A-Za-z0-9._~+/=-]*")/g;

export class SignedAnswerVerifier implements ResponseVerifier {
  constructor(
    private readonly keys: SigningKeys,
    private readonly options: { now: () => number; maxSkewSeconds?: number },
  ) {}

  async verify(response: VerifiableResponse): Promise<void> {
    if (!response.signed) return;
    const input = member(response.headers.get('signature-input'), LABEL);
    const signatureValue = member(response.headers.get('signature'), LABEL);
    if (input === undefined || signatureValue === undefined) {
      if (isUnsignedByDesign(response)) return;
      throw new SignatureError('The answer is not signed', { status: response.status });
    }
    const params = parseParams(input);
    if (params.alg !== 'ed25519' || typeof params.keyid !== 'string' || typeof params.created !== 'number') {
      throw new SignatureError(`Unexpected signature parameters: ${input}`, { status: response.status });
    }
    const sentNonce = response.request.headers['signature-nonce'];
    if (sentNonce !== undefined && params.nonce !== sentNonce) throw new SignatureError('The answer is signed for another request (nonce)', { status: response.status });

    const digest = response.headers.get('content-digest');
    const expected = `sha-256=:${toBase64(new Uint8Array(await this.keys.subtle.digest('SHA-256', response.body)))}:`;
    if (member(digest, 'sha-256') !== expected.slice('sha-256='.length)) throw new SignatureError('Content-Digest does not match the body', { status: response.status });

    const skewMs = (this.options.maxSkewSeconds ?? 300) * 1000;
    if (Math.abs(this.options.now() - params.created * 1000) > skewMs) {
      throw new SignatureError('The answer is too old, or the clock is off', { status: response.status });
    }

    const key = await this.keys.find(params.keyid, { refresh: true });
    if (!key) throw new SignatureError(`The answer is signed by an unknown key (${params.keyid})`, { status: response.status });
    const signature = fromBase64(signatureValue.replace(/^:|:$/g, ''));
    const base = [`"@status": ${response.status}`, `"content-digest": ${digest}`, `"@signature-params": ${input}`].join('\n');
    if (!signature || signature.length !== 64 || !(await this.keys.subtle.verify({ name: 'Ed25519' }, key, signature, ascii(base)))) {
      throw new SignatureError('The answer signature does not verify', { status: response.status });
    }
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

/** The parameters of `sig1`'s inner list, which must cover exactly what the service signs. */
function parseParams(input: string): Record<string, string | number> {
  if (!input.startsWith(COMPONENTS)) return {};
  const rest = input.slice(COMPONENTS.length);
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
