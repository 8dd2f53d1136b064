import { createPublicKey, generateKeyPairSync } from 'node:crypto';
import { newId } from '../../platform/index.js';
import type { SealContext, SecretBox } from '../../platform/secrets/index.js';

/**
 * A product's Ed25519 signing keys: one signs (the current key), the ones rotated out stay valid for verifiers
 * for `SIGNING_KEY_GRACE_DAYS`. Only `node:crypto` here: the edge imports this module.
 */

/** How long a rotated-out key is still listed and accepted by verifiers (docs/api.md, Signed answers). */
export const SIGNING_KEY_GRACE_DAYS = 7;
const DAY_MS = 86_400_000;

/** A key as the product item stores it. */
export type StoredSigningKey = { keyId: string; publicKey: string; sealedPrivateKey: string; createdAt: string; expiresAt?: string };

/** What signs for a product: its current key's id and sealed private key. */
export type SigningKeyRef = { keyId: string; sealedPrivateKey: string };

/** Who signs: the product, its tenant (both bound into the sealed key) and its current key, if it has one. */
export type SigningIdentity = { productId: string; tenantId: string; signingKey?: SigningKeyRef };

/** A key as the management API and `GET /public/v1/signing-key` show it. */
export type PublicSigningKey = {
  keyId: string;
  algorithm: 'ed25519';
  /** Base64 of the raw 32-byte public key (PHP `sodium_crypto_sign_verify_detached`, WebCrypto `importKey('raw', …)`). */
  publicKey: string;
  /** The same key as an SPKI PEM (`crypto.createPublicKey`, OpenSSL). */
  publicKeyPem: string;
  createdAt: string;
  /** Null for the current key; else when verifiers stop accepting it. */
  expiresAt: string | null;
  current: boolean;
};

type KeyHolder = { productId: string; tenantId: string; signingKeys?: StoredSigningKey[]; signingKeyId?: string };

/**
 * The encryption-context key that names a signing key. Keys sealed before contexts had a `kind` are told from
 * payment-provider secrets by it alone, which the KMS grants still honour (infra/constructs/provider-secrets-key.ts).
 */
export const SIGNING_KEY_CONTEXT = 'signingKey';

/** What a sealed private key is bound to: KMS refuses to open it for another tenant, product or key. */
export const signingKeySealContext = (tenantId: string, productId: string, keyId: string): SealContext => ({
  tenant: tenantId,
  kind: 'signing-key',
  [SIGNING_KEY_CONTEXT]: `${productId}/${keyId}`,
});

/** A new key pair, the private key sealed for this product. */
export async function newSigningKey(secrets: SecretBox, owner: { tenantId: string; productId: string }, now: Date): Promise<StoredSigningKey> {
  const keyId = newId('sig');
  const { publicKey, privateKey } = generateKeyPairSync('ed25519');
  const raw = publicKey.export({ format: 'jwk' }).x!;
  const pkcs8 = privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64');
  return {
    keyId,
    publicKey: Buffer.from(raw, 'base64url').toString('base64'),
    sealedPrivateKey: await secrets.seal(pkcs8, signingKeySealContext(owner.tenantId, owner.productId, keyId)),
    createdAt: now.toISOString(),
  };
}

/** The key that signs now, if the product has one (products made before signing have none until a rotation). */
export function currentSigningKey(product: Pick<KeyHolder, 'signingKeys' | 'signingKeyId'>): StoredSigningKey | undefined {
  return product.signingKeyId === undefined ? undefined : product.signingKeys?.find((key) => key.keyId === product.signingKeyId);
}

export function signingIdentityOf(product: KeyHolder): SigningIdentity {
  const current = currentSigningKey(product);
  return {
    productId: product.productId,
    tenantId: product.tenantId,
    ...(current ? { signingKey: { keyId: current.keyId, sealedPrivateKey: current.sealedPrivateKey } } : {}),
  };
}

/** The current key and those whose grace period has not ended: what verifiers accept. */
export function validSigningKeys(product: Pick<KeyHolder, 'signingKeys' | 'signingKeyId'>, now: Date): StoredSigningKey[] {
  return (product.signingKeys ?? []).filter(
    (key) => key.keyId === product.signingKeyId || (key.expiresAt !== undefined && Date.parse(key.expiresAt) > now.getTime()),
  );
}

const pemOf = (rawBase64: string) =>
  createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: Buffer.from(rawBase64, 'base64').toString('base64url') }, format: 'jwk' })
    .export({ format: 'pem', type: 'spki' })
    .toString();

/** The public half of each valid key, the current one first. */
export function publicSigningKeys(product: Pick<KeyHolder, 'signingKeys' | 'signingKeyId'>, now: Date): PublicSigningKey[] {
  return validSigningKeys(product, now)
    .map((key) => {
      const current = key.keyId === product.signingKeyId;
      return {
        keyId: key.keyId,
        algorithm: 'ed25519' as const,
        publicKey: key.publicKey,
        publicKeyPem: pemOf(key.publicKey),
        createdAt: key.createdAt,
        expiresAt: current ? null : (key.expiresAt ?? null),
        current,
      };
    })
    .sort((a, b) => Number(b.current) - Number(a.current) || b.createdAt.localeCompare(a.createdAt));
}

/**
 * The keys after a rotation: `next` signs from now on; the key that signed until now stays valid for the grace
 * period (one already rotated out keeps its own end), and keys whose grace has ended are dropped.
 */
export function rotatedKeys(product: Pick<KeyHolder, 'signingKeys' | 'signingKeyId'>, next: StoredSigningKey, now: Date): StoredSigningKey[] {
  const graceEnd = new Date(now.getTime() + SIGNING_KEY_GRACE_DAYS * DAY_MS).toISOString();
  const kept = validSigningKeys(product, now).map((key) => (key.keyId === product.signingKeyId ? { ...key, expiresAt: graceEnd } : key));
  return [...kept, next];
}
