import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildVectors, serializeVector, VECTORS_DIR } from '../../../scripts/offline-license-vectors.js';
import { verifyOfflineLicense } from '../../support/offline-license-verifier.js';

/**
 * The committed test vectors of offline license files (docs/test-vectors/offline-license), which client libraries
 * verify against: each gets its expected verdict from a verifier with `node:crypto` alone and from PHP with sodium,
 * and they are what the service's formatter makes (scripts/offline-license-vectors.ts).
 */
const files = readdirSync(VECTORS_DIR).filter((file) => file.endsWith('.json')).sort();
const vectors = files.map((file) => ({ file, ...JSON.parse(readFileSync(join(VECTORS_DIR, file), 'utf8')) }));
const PHP_VERIFIER = new URL('../../support/verify-offline-license.php', import.meta.url).pathname;

describe('offline license file test vectors', () => {
  it('cover every verdict', () => {
    expect(new Set(vectors.map((vector) => vector.expected))).toEqual(new Set(['valid', 'tampered', 'expired', 'wrong_domain', 'unknown_key']));
  });

  it('are what the service makes (regenerate with npx tsx scripts/offline-license-vectors.ts)', () => {
    const built = buildVectors();
    expect(files).toEqual(Object.keys(built).map((name) => `${name}.json`).sort());
    for (const [name, vector] of Object.entries(built)) expect(readFileSync(join(VECTORS_DIR, `${name}.json`), 'utf8'), name).toBe(serializeVector(vector));
  });

  it('each get their verdict from a node:crypto verifier', () => {
    for (const vector of vectors) {
      expect(verifyOfflineLicense(vector.licenseFile, vector.publicKeys, vector.domain, new Date(vector.now)).verdict, vector.file).toBe(vector.expected);
    }
  });

  it('each get their verdict from PHP with sodium', () => {
    const php = spawnSync('php', ['-r', 'echo extension_loaded("sodium") ? "yes" : "no";'], { encoding: 'utf8' });
    // Not skipped: the vectors are for PHP clients too. .ci/run installs php-cli (Debian's includes sodium).
    expect(php.error, 'php is needed for this test: apt-get install -y php-cli').toBeUndefined();
    expect(php.stdout, 'PHP lacks the sodium extension').toBe('yes');
    const out = execFileSync('php', [PHP_VERIFIER, ...files.map((file) => join(VECTORS_DIR, file))], { encoding: 'utf8' });
    const verdicts = JSON.parse(out) as Record<string, string>;
    expect(Object.keys(verdicts)).toHaveLength(vectors.length);
    for (const vector of vectors) expect(verdicts[join(VECTORS_DIR, vector.file)], vector.file).toBe(vector.expected);
  });
});
