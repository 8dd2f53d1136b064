import { createHash, createPublicKey } from 'node:crypto';
import { createVerifier, httpbis, type SignatureParameters } from 'http-message-signatures';
import { inject } from 'vitest';

/**
 * A client's check of a signed answer, written without the service's code: the signature by an independent
 * RFC 9421 implementation (`http-message-signatures`), the Content-Digest (RFC 9530) over the body bytes
 * recomputed here, and the nonce the client sent.
 */

export type PublicKeyEntry = { keyId: string; publicKey: string; publicKeyPem: string; expiresAt?: string | null; current?: boolean };
/** An answer as received, with the request it answers (method and path, the path without its query). */
export type RawAnswer = { status: number; headers: Record<string, string>; body: Buffer; json: any; request: { method: string; path: string } };

/** Calls the service and keeps the body's exact bytes. */
export async function rawCall(
  method: string,
  path: string,
  options: { body?: unknown; headers?: Record<string, string>; baseUrl?: string } = {},
): Promise<RawAnswer> {
  const res = await fetch(`${options.baseUrl ?? inject('baseUrl')}${path}`, {
    method,
    headers: { ...(options.body === undefined ? {} : { 'content-type': 'application/json' }), ...options.headers },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const body = Buffer.from(await res.arrayBuffer());
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: Object.fromEntries(res.headers), body, json, request: { method, path: path.split('?')[0]! } };
}

export const isSigned = (answer: RawAnswer) => 'signature' in answer.headers || 'signature-input' in answer.headers;

export type Verdict = { valid: boolean; keyId?: string; nonce?: string; reason?: string };

/** The components of an answer bound to its request (DECISIONS §13), as `Signature-Input` lists them. */
export const BOUND_COMPONENTS = '("@status" "content-digest" "@method";req "@path";req)';

/**
 * Whether the answer is signed by one of `keys` over its status and digest (and `nonce`, when given). `bound`: it
 * must also cover the method and path of `answer.request`, the request it answers.
 */
export async function verifyAnswer(answer: RawAnswer, keys: PublicKeyEntry[], nonce?: string, options: { bound?: boolean } = {}): Promise<Verdict> {
  const expectedDigest = `sha-256=:${createHash('sha256').update(answer.body).digest('base64')}:`;
  if (answer.headers['content-digest'] !== expectedDigest) return { valid: false, reason: 'content-digest does not match the body' };
  let seen: SignatureParameters | undefined;
  let verified: boolean | null;
  try {
    verified = await httpbis.verifyMessage(
      {
        keyLookup: async (params) => {
          seen = params;
          const key = keys.find((candidate) => candidate.keyId === params.keyid);
          return key ? { id: key.keyId, algs: ['ed25519'], verify: createVerifier(createPublicKey(key.publicKeyPem), 'ed25519') } : null;
        },
        requiredFields: ['@status', 'content-digest', ...(options.bound ? ['@method', '@path'] : [])],
        requiredParams: ['created', 'keyid', 'alg', ...(nonce === undefined ? [] : ['nonce'])],
      },
      { status: answer.status, headers: answer.headers },
      // `;req` components are read from the request the answer is for.
      { method: answer.request.method, url: `http://service.invalid${answer.request.path}`, headers: {} },
    );
  } catch (error) {
    return { valid: false, reason: (error as Error).message };
  }
  if (!verified) return { valid: false, keyId: seen?.keyid as string | undefined, reason: 'signature does not verify' };
  // The library takes `"@method"` for `"@method";req` in `requiredFields`: the request's own must be the ones covered.
  if (options.bound && !answer.headers['signature-input']?.startsWith(`sig1=${BOUND_COMPONENTS};`)) return { valid: false, reason: 'not bound to the request' };
  if (seen?.alg !== 'ed25519') return { valid: false, reason: `alg ${String(seen?.alg)}` };
  if (nonce !== undefined && seen.nonce !== nonce) return { valid: false, reason: `nonce ${String(seen.nonce)}` };
  return { valid: true, keyId: seen.keyid as string, nonce: seen.nonce as string | undefined };
}
