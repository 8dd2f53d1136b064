import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../shared/platform/config.js';
import { SECRET_ACCESS } from '../../../shared/platform/secrets/secret-access.js';
import { createSecretBox, envelopeBox, localKeyWrapper, SecretAccessDeniedError, type SealContext } from '../../../shared/platform/secrets/secret-box.js';

const box = envelopeBox(localKeyWrapper(randomBytes(32)));
const secret = 'sk_test_51Habcdefghijklmnopqrstuvwxyz';
const signingKey: SealContext = { tenant: 'usr_a', kind: 'signing-key', signingKey: 'prd_a/sig_a' };
const webhookSecret: SealContext = { tenant: 'usr_a', kind: 'webhook-secret', webhook: 'whk_a' };

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
    expect(sealed).toMatch(/^v2\.[\w-]+\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain(secret);
    expect(await box.open(sealed, 'usr_a')).toBe(secret);
    expect(await box.open(sealed, { tenant: 'usr_a', kind: 'stripe-secret' })).toBe(secret);
    expect(await box.seal(secret, 'usr_a')).not.toBe(sealed);
  });

  it('refuses a tampered value, another context, another key and a value that is not sealed', async () => {
    const sealed = await box.seal(secret, 'usr_a');
    for (const part of [1, 2, 3, 4]) await expect(box.open(tamper(sealed, part), 'usr_a')).rejects.toThrow();
    await expect(box.open(sealed, 'usr_b')).rejects.toThrow();
    await expect(envelopeBox(localKeyWrapper(randomBytes(32))).open(sealed, 'usr_a')).rejects.toThrow();
    await expect(box.open('sk_test_plain', 'usr_a')).rejects.toThrow('Not a sealed secret');
  });

  it('binds the kind and every part: another kind, part or the tenant alone does not open it', async () => {
    const sealed = await box.seal(secret, signingKey);
    expect(await box.open(sealed, { signingKey: 'prd_a/sig_a', kind: 'signing-key', tenant: 'usr_a' })).toBe(secret);
    await expect(box.open(sealed, { ...signingKey, signingKey: 'prd_a/sig_b' })).rejects.toThrow();
    await expect(box.open(sealed, { ...signingKey, kind: 'webhook-secret' })).rejects.toThrow();
    await expect(box.open(sealed, 'usr_a')).rejects.toThrow();
    const hook = await box.seal(secret, webhookSecret);
    await expect(box.open(hook, { ...webhookSecret, webhook: 'whk_b' })).rejects.toThrow();
  });

  it('still opens values sealed before contexts named their kind (v1), bound to their context without it', async () => {
    // Sealed by the box as it was before kinds, under this local key (Buffer.alloc(32, 7)).
    const legacy = envelopeBox(localKeyWrapper(Buffer.alloc(32, 7)));
    const tenant = 'usr_legacytenantaaaaaaaaaaaa';
    const stripe =
      'v1.Uo6Om6pAPtp6NL-qVWdY0m1QQWG8gA__EynuFOgvqW3ZA85aCse2SCFLUL7XG4whxLLuH-CHUIMgixkaZ1Jj8dhw4NvV8Wg2.s4Wu8rZ7zlllDozE.mXDPtQPWQSXZ3VWHb0FYgA.koUZ9G_io-_mgwwlDPw';
    const key =
      'v1.0Cm_3GenhVVMmOAC79T53lWK1KRrCY_irOoUOxLWL165iZ5YKlTISkN0HYrg-xhx4EDgKb0x0N9oxKGjwQHuDnpSNwH3Uh33.rp-f3Bka4XK7YdzO.DTzFhFUOkYa3VLFoBzILaw.Xy7S4a0OmcDgWh_q';
    expect(await legacy.open(stripe, tenant)).toBe('sk_test_legacy');
    expect(await legacy.open(key, { tenant, kind: 'signing-key', signingKey: 'prd_a/sig_a' })).toBe('legacy-pkcs8');
    await expect(legacy.open(key, { tenant, kind: 'signing-key', signingKey: 'prd_a/sig_b' })).rejects.toThrow();
    await expect(legacy.open(stripe, 'usr_other')).rejects.toThrow();
  });

  it("refuses, as KMS would, what the function's SECRET_ACCESS does not grant", async () => {
    const config = loadConfig({ TABLE_NAME: 't', RUNTIME: 'local', LOCAL_PROVIDER_KEY: randomBytes(32).toString('base64') });
    const management = createSecretBox(config, SECRET_ACCESS.management);
    const sealed = {
      stripe: await management.seal(secret, 'usr_a'),
      signingKey: await management.seal(secret, signingKey),
      webhook: await management.seal(secret, webhookSecret),
    };
    const edge = createSecretBox(config, SECRET_ACCESS.edge);
    expect(await edge.open(sealed.signingKey, signingKey)).toBe(secret);
    await expect(edge.open(sealed.stripe, 'usr_a')).rejects.toThrow(SecretAccessDeniedError);
    await expect(edge.open(sealed.webhook, webhookSecret)).rejects.toThrow('kms:Decrypt of a webhook-secret is not granted to this function');
    await expect(edge.seal(secret, signingKey)).rejects.toThrow('kms:GenerateDataKey of a signing-key is not granted to this function');
    const dispatcher = createSecretBox(config, SECRET_ACCESS.webhookDispatcher);
    expect(await dispatcher.open(sealed.webhook, webhookSecret)).toBe(secret);
    await expect(dispatcher.open(sealed.stripe, 'usr_a')).rejects.toThrow(SecretAccessDeniedError);
    const checkout = createSecretBox(config, SECRET_ACCESS.public);
    expect([await checkout.open(sealed.stripe, 'usr_a'), await checkout.open(sealed.signingKey, signingKey)]).toEqual([secret, secret]);
    await expect(checkout.open(sealed.webhook, webhookSecret)).rejects.toThrow(SecretAccessDeniedError);
    for (const payments of [SECRET_ACCESS.portal, SECRET_ACCESS.stripeWebhook]) {
      await expect(createSecretBox(config, payments).open(sealed.signingKey, signingKey)).rejects.toThrow(SecretAccessDeniedError);
    }
  });

  it('uses the local key only on the local runtime, and says which setting is missing otherwise', async () => {
    const key = randomBytes(32).toString('base64');
    const local = createSecretBox(loadConfig({ TABLE_NAME: 't', RUNTIME: 'local', LOCAL_PROVIDER_KEY: key }), SECRET_ACCESS.management);
    expect(await local.open(await local.seal(secret, 'usr_a'), 'usr_a')).toBe(secret);
    const aws = createSecretBox(loadConfig({ TABLE_NAME: 't', RUNTIME: 'aws', LOCAL_PROVIDER_KEY: key }), SECRET_ACCESS.management);
    await expect(aws.seal(secret, 'usr_a')).rejects.toThrow(/PROVIDER_KEY_ID/);
  });
});
