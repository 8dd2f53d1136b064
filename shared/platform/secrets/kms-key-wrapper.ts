import { DecryptCommand, GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { awsClientOptions } from '../clients.js';
import type { CoreConfig } from '../config.js';
import { encryptionContextOf, type KeyWrapper } from './key-wrapper.js';

/**
 * Data keys from KMS: GenerateDataKey gives the key in clear and wrapped; Decrypt unwraps a stored one. The seal
 * context (the tenant, the kind of value, which one) is the encryption context, so KMS itself refuses to unwrap a data
 * key for another tenant or value, and each function's grant holds for its kinds only (and CloudTrail names them).
 */
export function kmsKeyWrapper(config: CoreConfig, keyId: string): KeyWrapper {
  const kms = new KMSClient(awsClientOptions(config, undefined));
  return {
    async newDataKey(binding) {
      const out = await kms.send(new GenerateDataKeyCommand({ KeyId: keyId, KeySpec: 'AES_256', EncryptionContext: encryptionContextOf(binding) }));
      return { plaintext: Buffer.from(out.Plaintext!), wrapped: Buffer.from(out.CiphertextBlob!) };
    },
    async unwrap(wrapped, binding) {
      const out = await kms.send(new DecryptCommand({ KeyId: keyId, CiphertextBlob: wrapped, EncryptionContext: encryptionContextOf(binding) }));
      return Buffer.from(out.Plaintext!);
    },
  };
}
