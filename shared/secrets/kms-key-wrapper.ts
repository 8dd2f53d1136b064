import { DecryptCommand, GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { awsClientOptions } from '../clients.js';
import type { CoreConfig } from '../config.js';
import { encryptionContextOf, type KeyWrapper } from './secret-box.js';

/**
 * Data keys from KMS: GenerateDataKey gives the key in clear and wrapped; Decrypt unwraps a stored one. The seal
 * context (the tenant id, and for a signing key which one) is the encryption context, so KMS itself refuses to unwrap
 * a data key for another tenant or key (and CloudTrail names it).
 */
export function kmsKeyWrapper(config: CoreConfig, keyId: string): KeyWrapper {
  const kms = new KMSClient(awsClientOptions(config, undefined));
  return {
    async newDataKey(context) {
      const out = await kms.send(new GenerateDataKeyCommand({ KeyId: keyId, KeySpec: 'AES_256', EncryptionContext: encryptionContextOf(context) }));
      return { plaintext: Buffer.from(out.Plaintext!), wrapped: Buffer.from(out.CiphertextBlob!) };
    },
    async unwrap(wrapped, context) {
      const out = await kms.send(new DecryptCommand({ KeyId: keyId, CiphertextBlob: wrapped, EncryptionContext: encryptionContextOf(context) }));
      return Buffer.from(out.Plaintext!);
    },
  };
}
