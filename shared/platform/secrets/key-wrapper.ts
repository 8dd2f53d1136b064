/** What the data key and the ciphertext are bound to: an encryption context, or (values sealed first) a tenant id. */
export type Binding = string | Record<string, string>;

/** The binding as KMS takes it: a string is the tenant. */
export const encryptionContextOf = (binding: Binding): Record<string, string> => (typeof binding === 'string' ? { tenant: binding } : binding);

/** Wraps and unwraps data keys: KMS in AWS, a local key otherwise. */
export type KeyWrapper = {
  /** A fresh 32-byte data key and the wrapped form that is stored beside the ciphertext. */
  newDataKey(binding: Binding): Promise<{ plaintext: Buffer; wrapped: Buffer }>;
  unwrap(wrapped: Buffer, binding: Binding): Promise<Buffer>;
};
