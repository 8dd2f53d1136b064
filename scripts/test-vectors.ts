/**
 * What the test-vector scripts share (`scripts/*-vectors.ts`): fixed Ed25519 keys from public seeds, and writing the
 * vectors as one JSON file each, or with `--check` comparing them with the committed files.
 */
import { createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** An Ed25519 private key from the SHA-256 of `seed` (PKCS#8: the fixed prefix, then the seed), and its raw public key in base64. */
export function keyFromSeed(seed: string): { privateKey: KeyObject; publicKey: string } {
  const bytes = createHash('sha256').update(seed).digest();
  const privateKey = createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), bytes]), format: 'der', type: 'pkcs8' });
  const raw = createPublicKey(privateKey).export({ format: 'jwk' }).x!;
  return { privateKey, publicKey: Buffer.from(raw, 'base64url').toString('base64') };
}

export const serializeVector = (vector: object) => `${JSON.stringify(vector, null, 2)}\n`;

/** Writes each vector to `<directory>/<name>.json`; with `check`, exits non-zero when a file differs, is missing or is extra. */
export function writeVectors(directory: string, vectors: Record<string, object>, options: { check: boolean; script: string }): void {
  mkdirSync(directory, { recursive: true });
  const stale: string[] = [];
  for (const [name, vector] of Object.entries(vectors)) {
    const file = join(directory, `${name}.json`);
    const text = serializeVector(vector);
    if (!options.check) {
      writeFileSync(file, text);
      continue;
    }
    let current = '';
    try {
      current = readFileSync(file, 'utf8');
    } catch {
      // missing: stale
    }
    if (current !== text) stale.push(name);
  }
  const extra = readdirSync(directory).filter((f) => f.endsWith('.json') && !(f.slice(0, -5) in vectors));
  if (options.check && (stale.length || extra.length)) {
    console.error(`Stale vectors: ${[...stale, ...extra].join(', ')} (run npx tsx ${options.script})`);
    process.exit(1);
  }
  console.log(options.check ? 'vectors up to date' : `wrote ${Object.keys(vectors).length} vectors to ${directory}`);
}
