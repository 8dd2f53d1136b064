/** The client's signed answer verifier against every published test vector (docs/test-vectors/signed-answers). */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SignatureError, SignedAnswerVerifier, SigningKeys, type PublicSigningKey } from '../../src/index.js';

type Vector = {
  description: string;
  request: { method: string; path: string; headers: Record<string, string>; body: string | null };
  response: { status: number; headers: Record<string, string>; body: string };
  publicKeys: PublicSigningKey[];
  now: string;
  expected: string;
};

const DIRECTORY = join(dirname(fileURLToPath(import.meta.url)), '../../../../docs/test-vectors/signed-answers');
const vectors = readdirSync(DIRECTORY)
  .filter((name) => name.endsWith('.json'))
  .sort()
  .map((name) => [name, JSON.parse(readFileSync(join(DIRECTORY, name), 'utf8')) as Vector] as const);

describe('signed answer vectors', () => {
  it.each(vectors)('%s', async (_name, vector) => {
    const now = () => Date.parse(vector.now);
    const verifier = new SignedAnswerVerifier(new SigningKeys({ pinned: vector.publicKeys, storageKey: 'vectors', now }), { now });
    const outcome = await Promise.resolve(
      verifier.verify({
        request: { ...vector.request, url: `https://licenses.invalid${vector.request.path}`, body: vector.request.body ?? undefined },
        signed: true,
        status: vector.response.status,
        headers: new Headers(vector.response.headers),
        body: new TextEncoder().encode(vector.response.body) as Uint8Array<ArrayBuffer>,
      }),
    ).then(
      () => 'valid',
      (error: unknown) => (error instanceof SignatureError ? error.reason : error),
    );
    expect(outcome).toBe(vector.expected);
  });
});
