import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { LicenseFileVerdict, PublicSigningKey } from '../../src/index.js';

/** One case of docs/test-vectors/offline-license: a file, the keys, the site and the time, and the verdict due. */
export type OfflineVector = {
  description: string;
  licenseFile: string;
  publicKeys: PublicSigningKey[];
  domain: string;
  now: string;
  expected: LicenseFileVerdict;
};

const DIRECTORY = join(dirname(fileURLToPath(import.meta.url)), '../../../../docs/test-vectors/offline-license');

/** Every vector, by file name. */
export function offlineVectors(): [string, OfflineVector][] {
  return readdirSync(DIRECTORY)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => [name, JSON.parse(readFileSync(join(DIRECTORY, name), 'utf8')) as OfflineVector]);
}

export const offlineVector = (name: string) => offlineVectors().find(([file]) => file === `${name}.json`)![1];
