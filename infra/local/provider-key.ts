import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const KEY_FILE = 'provider-secrets.key';
let processKey: string | undefined;

/**
 * The local stand-in for the KMS key that seals payment-provider secrets (shared/payments/secret-box.ts), base64:
 * kept in `DATA_DIR` (made on first start, readable by the owner only) so stored secrets open after a restart;
 * with `:memory:` one random key per process, as nothing outlives it.
 */
export function localProviderKey(dataDir: string | undefined): string {
  if (!dataDir) return (processKey ??= randomBytes(32).toString('base64'));
  const file = join(dataDir, KEY_FILE);
  if (!existsSync(file)) writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600, flag: 'wx' });
  return readFileSync(file, 'utf8').trim();
}
