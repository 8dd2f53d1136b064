import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { CoreConfig } from '../config.js';
import type { Binding, KeyWrapper } from './key-wrapper.js';
import type { SealedKind, SecretAccess } from './secret-access.js';

/**
 * What a sealed value is and whose: the tenant, its `kind`, and which value of the kind it is (`{ tenant, kind:
 * 'signing-key', signingKey: 'prd_…/sig_…' }`, `{ tenant, kind: 'webhook-secret', webhook: 'whk_…' }`). A string is a
 * tenant's payment-provider secret (`{ tenant, kind: 'stripe-secret' }`). It is the KMS encryption context (so KMS
 * itself refuses to unwrap the data key for another, a function's grant can be limited to kinds, and CloudTrail names
 * it) and the AES-GCM additional data, so a sealed value copied onto another item does not open.
 */
export type SealContext = string | ({ tenant: string; kind: SealedKind } & Record<string, string>);

const contextOf = (context: SealContext): { tenant: string; kind: SealedKind } & Record<string, string> =>
  typeof context === 'string' ? { tenant: context, kind: 'stripe-secret' } : context;

/**
 * What a value sealed before kinds (`v1`) is bound to: its context without `kind`, and a tenant alone as the bare
 * tenant id (payment-provider secrets were sealed so). Such values keep opening; new ones are sealed `v2`.
 */
function legacyBinding(context: SealContext): Binding {
  const { kind: _kind, ...rest } = contextOf(context);
  return Object.keys(rest).length === 1 ? rest.tenant : rest;
}

/** The binding as additional data: a string as it is. */
const additionalData = (binding: Binding): string =>
  typeof binding === 'string'
    ? binding
    : Object.keys(binding)
        .sort()
        .map((key) => `${key}=${binding[key]}`)
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

/** `v2`: bound to the whole context, `kind` included; `v1`: sealed before kinds (see `legacyBinding`). */
const VERSION = 'v2';
const LEGACY_VERSION = 'v1';
/** Opened secrets a container keeps (two per vendor it serves, one per product it signs for). */
const MAX_OPENED = 1000;

function encrypt(key: Buffer, plaintext: string, binding: Binding) {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(Buffer.from(additionalData(binding), 'utf8'));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return { iv, ciphertext, tag: cipher.getAuthTag() };
}

function decrypt(key: Buffer, parts: { iv: Buffer; ciphertext: Buffer; tag: Buffer }, binding: Binding): string {
  const decipher = createDecipheriv('aes-256-gcm', key, parts.iv).setAAD(Buffer.from(additionalData(binding), 'utf8'));
  decipher.setAuthTag(parts.tag);
  return Buffer.concat([decipher.update(parts.ciphertext), decipher.final()]).toString('utf8');
}

/** `v2.<wrapped data key>.<iv>.<tag>.<ciphertext>`, each part base64url. */
export function envelopeBox(wrapper: KeyWrapper): SecretBox {
  return {
    async seal(plaintext, context) {
      const binding = contextOf(context);
      const dataKey = await wrapper.newDataKey(binding);
      try {
        const { iv, ciphertext, tag } = encrypt(dataKey.plaintext, plaintext, binding);
        return [VERSION, dataKey.wrapped, iv, tag, ciphertext].map((part) => (typeof part === 'string' ? part : part.toString('base64url'))).join('.');
      } finally {
        dataKey.plaintext.fill(0);
      }
    },
    async open(sealed, context) {
      const [version, wrapped, iv, tag, ciphertext, ...rest] = sealed.split('.');
      if ((version !== VERSION && version !== LEGACY_VERSION) || !wrapped || !iv || !tag || ciphertext === undefined || rest.length) {
        throw new Error('Not a sealed secret');
      }
      const binding = version === VERSION ? contextOf(context) : legacyBinding(context);
      const key = await wrapper.unwrap(Buffer.from(wrapped, 'base64url'), binding);
      try {
        const b = (part: string) => Buffer.from(part, 'base64url');
        return decrypt(key, { iv: b(iv), tag: b(tag), ciphertext: b(ciphertext) }, binding);
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
    async newDataKey(binding) {
      const plaintext = randomBytes(32);
      const { iv, ciphertext, tag } = encrypt(masterKey, plaintext.toString('base64'), binding);
      return { plaintext, wrapped: Buffer.concat([iv, tag, ciphertext]) };
    },
    async unwrap(wrapped, binding) {
      const parts = { iv: wrapped.subarray(0, 12), tag: wrapped.subarray(12, 28), ciphertext: wrapped.subarray(28) };
      return Buffer.from(decrypt(masterKey, parts, binding), 'base64');
    },
  };
}

/** KMS's own refusal, as a function whose grant does not cover the kind gets it (the local box refuses alike). */
export class SecretAccessDeniedError extends Error {
  override readonly name = 'AccessDeniedException';
}

/** Refuses what `access` does not grant, as KMS refuses it in AWS (the stack grants from the same list). */
function checkAccess(access: SecretAccess, action: 'seal' | 'open', context: SealContext): void {
  const { kind } = contextOf(context);
  if (access === 'sealAndOpen' || (action === 'open' && access.open.includes(kind))) return;
  throw new SecretAccessDeniedError(`${action === 'seal' ? 'kms:GenerateDataKey' : 'kms:Decrypt'} of a ${kind} is not granted to this function`);
}

/**
 * The box this runtime uses: KMS when `PROVIDER_KEY_ID` is set, else the local key. Both are built on first use
 * (the KMS client is imported then too), so a container that never touches a secret pays nothing for them.
 * `access`: the function's entry in `SECRET_ACCESS`; anything beyond it is refused before KMS is asked.
 */
export function createSecretBox(config: CoreConfig, access: SecretAccess): SecretBox {
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
    async seal(plaintext, context) {
      checkAccess(access, 'seal', context);
      return (await get()).seal(plaintext, context);
    },
    async open(sealed, context) {
      checkAccess(access, 'open', context);
      const cacheKey = `${additionalData(contextOf(context))}\n${sealed}`;
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
