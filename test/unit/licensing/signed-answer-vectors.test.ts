import { createPublicKey } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildVectors, serializeVector, VECTORS_DIR } from '../../../scripts/signed-answer-vectors.js';
import { normalizeDomain } from '../../../shared/licensing/operations/domain.js';
import { verifyAnswer } from '../../support/signature-verifier.js';

/**
 * The committed test vectors of signed answers (docs/test-vectors/signed-answers), which client libraries verify
 * against (clients/js/test/unit, clients/php/tests): they are what the service's own signing code makes
 * (scripts/signed-answer-vectors.ts), and an independent RFC 9421 verifier, with the binding rules of DECISIONS §13,
 * accepts exactly those expected `valid`.
 */
type Vector = ReturnType<typeof buildVectors>[string];

const files = readdirSync(VECTORS_DIR).filter((file) => file.endsWith('.json')).sort();
const vectors = files.map((file) => ({ file, ...(JSON.parse(readFileSync(join(VECTORS_DIR, file), 'utf8')) as Vector) }));
const BOUND_PATH = /^(\/public)?\/v1\/licenses\/(validate|activate|deactivate|check)$/;
const MAX_SKEW_SECONDS = 300;

/** What a careful client concludes, written from docs/api.md alone: signature, nonce, time, and for bound routes the key and domain. */
async function accepts(vector: Vector): Promise<boolean> {
  const keys = vector.publicKeys.map((key) => ({
    ...key,
    publicKeyPem: createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(key.publicKey, 'base64').toString('base64url') }, format: 'jwk' })
      .export({ type: 'spki', format: 'pem' })
      .toString(),
  }));
  const body = Buffer.from(vector.response.body);
  const bound = vector.request.method === 'POST' && BOUND_PATH.test(vector.request.path);
  const answer = { status: vector.response.status, headers: vector.response.headers, body, json: JSON.parse(vector.response.body), request: vector.request };
  const verdict = await verifyAnswer(answer, keys, vector.request.headers['signature-nonce'], { bound });
  if (!verdict.valid) return false;
  const created = Number(/;created=(\d+)/.exec(vector.response.headers['signature-input']!)![1]);
  if (Math.abs(Date.parse(vector.now) / 1000 - created) > MAX_SKEW_SECONDS) return false;
  if (!bound) return true;
  const sent = JSON.parse(vector.request.body!) as { license_key: string; domain?: string };
  return answer.json.license_key === sent.license_key && answer.json.domain === (sent.domain === undefined ? undefined : normalizeDomain(sent.domain));
}

describe('signed answer test vectors', () => {
  it('cover every reason a client refuses an answer for', () => {
    expect(new Set(vectors.map((vector) => vector.expected))).toEqual(
      new Set(['valid', 'unsigned', 'malformed', 'tampered', 'wrong_nonce', 'stale', 'unknown_key', 'wrong_license_key', 'wrong_domain']),
    );
  });

  it('are what the service makes (regenerate with npx tsx scripts/signed-answer-vectors.ts)', () => {
    const built = buildVectors();
    expect(files).toEqual(Object.keys(built).map((name) => `${name}.json`).sort());
    for (const [name, vector] of Object.entries(built)) expect(readFileSync(join(VECTORS_DIR, `${name}.json`), 'utf8'), name).toBe(serializeVector(vector));
  });

  it.each(vectors.map((vector) => [vector.file, vector] as const))('%s: an independent verifier agrees', async (_file, vector) => {
    expect(await accepts(vector)).toBe(vector.expected === 'valid');
  });
});
