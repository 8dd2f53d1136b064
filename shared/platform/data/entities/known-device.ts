import { Entity } from 'electrodb';
import { model, primaryKey } from '../keys.js';

/**
 * A browser that signed in to an account (DECISIONS §20): SHA-256 of the token in its `device` cookie, and the account's
 * e-mail. A login from it is not held back by the failures of other addresses at the account (shared/identity/accounts/users.ts
 * `logIn`). Written at each sign-in; TTL one year from the last.
 */
export const knownDeviceEntity = () =>
  new Entity({
    model: model('knownDevice'),
    attributes: {
      deviceHash: { type: 'string', required: true },
      email: { type: 'string', required: true },
      signedInAt: { type: 'string', required: true },
      /** Epoch seconds: DynamoDB's TTL removes a device a year after its last sign-in. */
      ttl: { type: 'number', required: true },
    },
    indexes: { byDevice: primaryKey(['deviceHash'], ['email']) },
  });
