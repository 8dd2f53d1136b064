import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import type { HttpResult } from '../../platform/http/index.js';
import { logger } from '../../platform/observability/index.js';
import type { SecretBox } from '../../platform/secrets/index.js';
import { signatureHeaders, type AnsweredRequest } from './http-signatures.js';
import { type SigningIdentity, signingKeySealContext } from '../../catalog/index.js';

/** Private keys a container keeps opened (one per product it answers for; a rotation adds one). */
const MAX_OPENED_KEYS = 1_000;

export type OpenedKey = { keyId: string; privateKey: KeyObject };

/**
 * Products' private signing keys, each opened once per container (one KMS Decrypt in AWS) and kept by key id:
 * the sealed key comes with the cached product, so a warm signature costs no read and no KMS call.
 */
export function createKeyring(secrets: SecretBox) {
  const opened = new Map<string, Promise<OpenedKey>>();
  return {
    /** The product's current key, opened; undefined when it has none. Throws when it cannot be opened (KMS). */
    async keyFor(identity: SigningIdentity): Promise<OpenedKey | undefined> {
      const ref = identity.signingKey;
      if (!ref) return undefined;
      let key = opened.get(ref.keyId);
      if (!key) {
        key = secrets
          .open(ref.sealedPrivateKey, signingKeySealContext(identity.tenantId, identity.productId, ref.keyId))
          .then((pkcs8) => ({ keyId: ref.keyId, privateKey: createPrivateKey({ key: Buffer.from(pkcs8, 'base64'), format: 'der', type: 'pkcs8' }) }));
        if (opened.size >= MAX_OPENED_KEYS) opened.delete(opened.keys().next().value!);
        opened.set(ref.keyId, key);
        // A failure is not kept: the next answer tries again.
        key.catch(() => opened.delete(ref.keyId));
      }
      return key;
    },
  };
}
export type Keyring = ReturnType<typeof createKeyring>;

export type ResponseSigner = ReturnType<typeof createResponseSigner>;

/**
 * Signs answers with the answering product's current key (RFC 9421, `http-signatures.ts`). A product without a key
 * answers unsigned; so does one whose key cannot be opened right now (logged): an unsigned answer is one a verifying
 * client does not trust, which is what a 503 would have told it too, and the answer itself is not lost.
 */
export function createResponseSigner(keyring: Keyring) {
  return {
    keyring,
    /** `request`: the request the answer is bound to (http-signatures.ts), when it is. */
    async sign(answer: HttpResult, identity: SigningIdentity, options: { now: Date; nonce?: string; request?: AnsweredRequest }): Promise<HttpResult> {
      let key: OpenedKey | undefined;
      try {
        key = await keyring.keyFor(identity);
      } catch (error) {
        logger.error('Signing key could not be opened: answering unsigned', { error, productId: identity.productId });
        return answer;
      }
      if (!key) return answer;
      const body = Buffer.from(answer.body ?? '', answer.isBase64Encoded ? 'base64' : 'utf8');
      const headers = signatureHeaders({ status: answer.statusCode, body, now: options.now, keyId: key.keyId, nonce: options.nonce, request: options.request }, (base) =>
        sign(null, base, key.privateKey),
      );
      // The answer is this request's own (built by the route): its headers are added to, not copied.
      answer.headers = Object.assign(answer.headers ?? {}, headers);
      return answer;
    },
  };
}
