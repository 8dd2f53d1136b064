import { createPublicKey, randomBytes, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ok } from '../../../shared/platform/http/responses.js';
import { envelopeBox, localKeyWrapper, type SecretBox } from '../../../shared/platform/secrets/secret-box.js';
import { createKeyring, createResponseSigner } from '../../../shared/licensing/signing/response-signer.js';
import { newSigningKey, publicSigningKeys, rotatedKeys, signingIdentityOf, validSigningKeys } from '../../../shared/catalog/products/signing-keys.js';

const DAY_MS = 86_400_000;
const owner = { tenantId: 'usr_aaaaaaaaaaaaaaaaaaaaaaaa', productId: 'prd_aaaaaaaaaaaaaaaaaaaaaaaa' };

/** A box that counts how often it opens a sealed value (KMS Decrypt calls, in AWS). */
function countingBox(): SecretBox & { opens: number } {
  const inner = envelopeBox(localKeyWrapper(randomBytes(32)));
  const box = { opens: 0, seal: inner.seal, open: async (sealed: string, context: Parameters<SecretBox['open']>[1]) => (box.opens++, inner.open(sealed, context)) };
  return box;
}

describe('signing keys', () => {
  it('rotate: the new key signs, the old one stays valid for 7 days, then a later rotation drops it', async () => {
    const box = countingBox();
    const t0 = new Date('2026-03-01T00:00:00Z');
    const first = await newSigningKey(box, owner, t0);
    let product = { ...owner, signingKeys: [first], signingKeyId: first.keyId };
    expect(validSigningKeys(product, t0).map((key) => key.keyId)).toEqual([first.keyId]);

    const t1 = new Date(t0.getTime() + DAY_MS);
    const second = await newSigningKey(box, owner, t1);
    product = { ...product, signingKeys: rotatedKeys(product, second, t1), signingKeyId: second.keyId };
    expect(publicSigningKeys(product, t1).map((key) => [key.keyId, key.current, key.expiresAt])).toEqual([
      [second.keyId, true, null],
      [first.keyId, false, new Date(t1.getTime() + 7 * DAY_MS).toISOString()],
    ]);
    // Past its grace the old key is no longer listed, and the next rotation drops it from the item.
    const t2 = new Date(t1.getTime() + 7 * DAY_MS + 1);
    expect(validSigningKeys(product, t2).map((key) => key.keyId)).toEqual([second.keyId]);
    const third = await newSigningKey(box, owner, t2);
    expect(rotatedKeys(product, third, t2).map((key) => key.keyId)).toEqual([second.keyId, third.keyId]);
  });

  it('opens a private key once per container, signs what its public key verifies, and answers unsigned when it cannot open it', async () => {
    const box = countingBox();
    const key = await newSigningKey(box, owner, new Date());
    const identity = signingIdentityOf({ ...owner, signingKeys: [key], signingKeyId: key.keyId });
    const signer = createResponseSigner(createKeyring(box));
    const publicKey = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(key.publicKey, 'base64').toString('base64url') }, format: 'jwk' });
    for (let i = 0; i < 3; i++) {
      const signed = await signer.sign(ok({ valid: true }), identity, { now: new Date(), nonce: `n${i}` });
      const signature = Buffer.from(String(signed.headers!.signature).slice('sig1=:'.length, -1), 'base64');
      const base = [
        '"@status": 200',
        `"content-digest": ${signed.headers!['content-digest']}`,
        `"@signature-params": ${String(signed.headers!['signature-input']).slice('sig1='.length)}`,
      ].join('\n');
      expect(verify(null, Buffer.from(base), publicKey, signature)).toBe(true);
    }
    expect(box.opens).toBe(1);

    // Sealed for another product: does not open; the answer goes out unsigned, not as an error.
    const foreign = signingIdentityOf({ ...owner, productId: 'prd_bbbbbbbbbbbbbbbbbbbbbbbb', signingKeys: [key], signingKeyId: key.keyId });
    const fresh = createResponseSigner(createKeyring(box));
    const answer = ok({ valid: true });
    expect(await fresh.sign(answer, foreign, { now: new Date() })).toBe(answer);
    // A product without a key: unsigned.
    expect(await fresh.sign(answer, { ...owner }, { now: new Date() })).toBe(answer);
  });
});
