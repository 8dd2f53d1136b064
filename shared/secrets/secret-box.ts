import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { CoreConfig } from '../config.js';

/**
 * What a sealed value is bound to: the tenant id (payment-provider secrets), or the tenant and what the value is
 * (`{ tenant, signingKey: 'prd_…/sig_…' }` for a product's signing key). It is the KMS encryption context (so KMS
 * itself refuses to unwrap the data key for another, and CloudTrail names it) and the AES-GCM additional data, so
 * a sealed value copied onto another tenant's or product's item does not open.
 */
export type SealContext = string | ({ tenant: string } & Record<string, string>);

/** The context as KMS takes it: a string is the tenant. */
export const encryptionContextOf = (context: SealContext): Record<string, string> =>
  typeof context === 'string' ? { tenant: context } : context;

/** The context as additional data: a string as it is (what values sealed before contexts had parts were bound to). */
const additionalData = (context: SealContext): string =>
  typeof context === 'string'
    ? context
    : Object.keys(context)
        .sort()
        .map((key) => `${key}=${context[key]}`)
        .join('\n');

/**
 * Seals secrets for storage (payment-provider secrets, products' signing keys): AES-256-GCM under a data key, the
 * data key wrapped by KMS in AWS (envelope encryption: the master key never leaves KMS) or, locally, the runtime's
 * own 32-byte key. `context` is bound in (see `SealContext`).
 */
export type SecretBox = {
  seal(plaintext: string, context: SealContext): Promise<string>;
  open(sealed: string, context: SealContext): Promise<string>;
};

/** Wraps and unwraps data keys: KMS in AWS, a local key otherwise. */
export type KeyWrapper = {
  /** A fresh 32-byte data key and the wrapped form that is stored beside the ciphertext. */
  newDataKey(context: SealContext): Promise<{ plaintext: Buffer; wrapped: Buffer }>;
  unwrap(wrapped: Buffer, context: SealContext): Promise<Buffer>;
};

const VERSION = 'v1';
/** Opened secrets a container keeps (two per vendor it serves, one per product it signs for). */
const MAX_OPENED = 1000;

function encrypt(key: Buffer, plaintext: string, context: SealContext) {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(additionalData(context), 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { iv, ciphertext, tag: cipher.getAuthTag() };
}

function decrypt(key: Buffer, parts: { iv: Buffer; ciphertext: Buffer; tag: Buffer }, context: SealContext): string {
  const decipher = createDecipheriv('aes-256-gcm', key, parts.iv).setAAD(Buffer.from(additionalData(context), 'utf8'));
  decipher.setAuthTag(parts.tag);
  return Buffer.concat([decipher.update(parts.ciphertext), decipher.final()]).toString('utf8');
}

/** `v1.<wrapped data key>.<iv>.<tag>.<ciphertext>`, each part base64url. */
export function envelopeBox(wrapper: KeyWrapper): SecretBox {
  return {
    async seal(plaintext, context) {
      const dataKey = await wrapper.newDataKey(context);
      try {
        const { iv, ciphertext, tag } = encrypt(dataKey.plaintext, plaintext, context);
        return [VERSION, dataKey.wrapped, iv, tag, ciphertext].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
      } finally {
        dataKey.plaintext.fill(0);
      }
    },
    async open(sealed, context) {
      const [version, wrapped, iv, tag, ciphertext, ...rest] = sealed.split('.');
      if (version !== VERSION || !wrapped || !iv || !tag || ciphertext === undefined || rest.length) throw new Error('Not a sealed secret');
      const key = await wrapper.unwrap(Buffer.from(wrapped, 'base64url'), context);
      try {
        const b = (part: string) => Buffer.from(part, 'base64url');
        return decrypt(key, { iv: b(iv), tag: b(tag), ciphertext: b(ciphertext) }, context);
      } finally {
        key.fill(0);
      }
    },
  };
}

/** Locally: each data key is wrapped with AES-256-GCM under the runtime's key (kept under DATA_DIR by the local stack). */
export function localKeyWrapper(masterKey: Buffer): KeyWrapper {
  if (masterKey.length !== 32) throw new Error('The local provider key must be 32 bytes');
  return {
    async newDataKey(context) {
      const plaintext = randomBytes(32);
      const { iv, ciphertext, tag } = encrypt(masterKey, plaintext.toString('base64'), context);
      return { plaintext, wrapped: Buffer.concat([iv, tag, ciphertext]) };
    },
    async unwrap(wrapped, context) {
      const parts = { iv: wrapped.subarray(0, 12), tag: wrapped.subarray(12, 28), ciphertext: wrapped.subarray(28) };
      return Buffer.from(decrypt(masterKey, parts, context), 'base64');
    },
  };
}

/**
 * The box this runtime uses: KMS when `PROVIDER_KEY_ID` is set, else the local key. Both are built on first use
 * (the KMS client is imported then too), so a container that never touches a secret pays nothing for them.
 */
export function createSecretBox(config: CoreConfig): SecretBox {
  let box: Promise<SecretBox> | undefined;
  const build = async (): Promise<SecretBox> => {
    const { providerKeyId, localProviderKey } = config.payments;
    if (providerKeyId) {
      const { kmsKeyWrapper } = await import('./kms-key-wrapper.js');
      return envelopeBox(kmsKeyWrapper(config, providerKeyId));
    }
    if (localProviderKey && config.runtime === 'local') return envelopeBox(localKeyWrapper(Buffer.from(localProviderKey, 'base64')));
    throw new Error('No key for sealed secrets: set PROVIDER_KEY_ID (or LOCAL_PROVIDER_KEY locally)');
  };
  const get = () => (box ??= build().catch((error) => ((box = undefined), Promise.reject(error))));
  // Opened secrets are kept for the container, so a warm checkout or signature costs no KMS call; a new
  // connection or signing key is a new sealed value.
  const opened = new Map<string, string>();
  return {
    seal: async (plaintext, context) => (await get()).seal(plaintext, context),
    async open(sealed, context) {
      const cacheKey = `${additionalData(context)}\n${sealed}`;
      let plaintext = opened.get(cacheKey);
      if (plaintext === undefined) {
        plaintext = await (await get()).open(sealed, context);
        if (opened.size >= MAX_OPENED) opened.delete(opened.keys().next().value!);
        opened.set(cacheKey, plaintext);
      }
      return plaintext;
    },
  };
}
