import { describe, expect, it } from 'vitest';
import { hashPassword, verifyPassword } from '../../../shared/identity/accounts/passwords.js';
import { loadConfig } from '../../../shared/platform/config.js';

const config = (env: Record<string, string>) => loadConfig({ TABLE_NAME: 'licensing', ...env });

describe('password hashing', () => {
  it("hashes at OWASP's scrypt cost (N=2^17, r=8, p=1) unless told otherwise, and verifies only the same password", async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^scrypt\$131072\$8\$1\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('correct horse batterY', stored)).toBe(false);
  }, 30_000);

  it('verifies a hash by the parameters stored in it, so a lowered cost still checks the password', async () => {
    const stored = await hashPassword('correct horse battery', 10);
    expect(stored).toMatch(/^scrypt\$1024\$8\$1\$/);
    expect(await verifyPassword('correct horse battery', stored)).toBe(true);
    expect(await verifyPassword('wrong horse battery', stored)).toBe(false);
  });

  it('takes a lowered cost (PASSWORD_HASH_COST) in the local runtime only, and 17 everywhere by default', () => {
    expect(config({}).passwordHashCost).toBe(17);
    expect(config({ RUNTIME: 'local' }).passwordHashCost).toBe(17);
    expect(config({ RUNTIME: 'local', PASSWORD_HASH_COST: '10' }).passwordHashCost).toBe(10);
    expect(config({ RUNTIME: 'aws', PASSWORD_HASH_COST: '17' }).passwordHashCost).toBe(17);
    expect(() => config({ RUNTIME: 'aws', PASSWORD_HASH_COST: '10' })).toThrow('PASSWORD_HASH_COST is for the local runtime only');
    for (const cost of ['9', '18', '1e1', 'low']) {
      expect(() => config({ RUNTIME: 'local', PASSWORD_HASH_COST: cost }), cost).toThrow('must be a whole number from 10 to 17');
    }
  });
});
