import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const processKeys = new Map<string, string>();

/**
 * The local stand-in for the KMS key that seals payment-provider secrets (shared/platform/secrets/secret-box.ts), base64:
 * kept in `DATA_DIR` (made on first start, readable by the owner only) so stored secrets open after a restart;
 * with `:memory:` one random key per process, as nothing outlives it.
 */
export function localProviderKey(dataDir: string | undefined): string {
  return localKey(dataDir, 'provider-secrets.key');
}

/** The local stand-in for the secret that signs portal download links (Secrets Manager in AWS), kept the same way. */
export function localDownloadLinkKey(dataDir: string | undefined): string {
  return localKey(dataDir, 'download-links.key');
}

function localKey(dataDir: string | undefined, name: string): string {
  if (!dataDir) {
    if (!processKeys.has(name)) processKeys.set(name, randomBytes(32).toString('base64'));
    return processKeys.get(name)!;
  }
  const file = join(dataDir, name);
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  return readFileSync(file, 'utf8').trim();
}
