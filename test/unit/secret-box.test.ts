import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../shared/config.js';
import { createSecretBox, envelopeBox, localKeyWrapper } from '../../shared/secrets/secret-box.js';

const box = envelopeBox(localKeyWrapper(randomBytes(32)));
const secret = 'sk_test_51Habcdefghijklmnopqrstuvwxyz';

/** Flips one bit of the given part (1 wrapped key, 2 iv, 3 tag, 4 ciphertext) of a sealed value. */
function tamper(sealed: string, part: number): string {
  const parts = sealed.split('.');
  const bytes = Buffer.from(parts[part]!, 'base64url');
  bytes[bytes.length - 1]! ^= 1;
  parts[part] = bytes.toString('base64url');
  return parts.join('.');
}

describe('secret box', () => {
  it('opens what it sealed, and seals the same secret differently each time', async () => {
    const sealed = await box.seal(secret, 'usr_a');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain(secret);
    expect(await box.open(sealed, 'usr_a')).toBe(secret);
    expect(await box.seal(secret, 'usr_a')).not.toBe(sealed);
  });

  it('refuses a tampered value, another context, another key and a value that is not sealed', async () => {
    const sealed = await box.seal(secret, 'usr_a');
    for (const part of [1, 2, 3, 4]) await expect(box.open(tamper(sealed, part), 'usr_a')).rejects.toThrow();
    await expect(box.open(sealed, 'usr_b')).rejects.toThrow();
    await expect(envelopeBox(localKeyWrapper(randomBytes(32))).open(sealed, 'usr_a')).rejects.toThrow();
    await expect(box.open('sk_test_plain', 'usr_a')).rejects.toThrow('Not a sealed secret');
  });

  it('binds a context of several parts: another part, or the tenant alone, does not open it', async () => {
    const context = { tenant: 'usr_a', signingKey: 'prd_a/sig_a' };
    const sealed = await box.seal(secret, context);
    expect(await box.open(sealed, { signingKey: 'prd_a/sig_a', tenant: 'usr_a' })).toBe(secret);
    await expect(box.open(sealed, { tenant: 'usr_a', signingKey: 'prd_a/sig_b' })).rejects.toThrow();
    await expect(box.open(sealed, 'usr_a')).rejects.toThrow();
  });

  it('uses the local key only on the local runtime, and says which setting is missing otherwise', async () => {
    const key = randomBytes(32).toString('base64');
    const local = createSecretBox(loadConfig({ TABLE_NAME: 't', RUNTIME: 'local', LOCAL_PROVIDER_KEY: key }));
    expect(await local.open(await local.seal(secret, 'usr_a'), 'usr_a')).toBe(secret);
    const aws = createSecretBox(loadConfig({ TABLE_NAME: 't', RUNTIME: 'aws', LOCAL_PROVIDER_KEY: key }));
    await expect(aws.seal(secret, 'usr_a')).rejects.toThrow(/PROVIDER_KEY_ID/);
  });
});
