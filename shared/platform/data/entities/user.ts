import { Entity } from 'electrodb';
import { model, primaryKey } from '../keys.js';
import { SERVICE_NAME } from '../table-schema.js';

export const userEntity = () =>
  new Entity({
    model: model('user'),
    attributes: {
      userId: { type: 'string', required: true },
      email: { type: 'string', required: true },
      name: { type: 'string', required: true },
      role: { type: 'string', required: true, default: 'developer' },
      avatarUrl: { type: 'string' },
      /** scrypt; absent for a user created by OAuth sign-in until they set a password. */
      passwordHash: { type: 'string' },
      /**
       * The address is the user's (DECISIONS §13): set by its verification link, or by a Google or GitHub sign-in that
       * vouched for it. Absent (users made before verification existed) reads as false.
       */
      emailVerified: { type: 'boolean' },
      /** OAuth providers linked to the user (`google`, `github`), written with their `userIdentity` items. */
      providers: { type: 'set', items: 'string' },
      createdAt: { type: 'string', required: true },
      updatedAt: { type: 'string', required: true },
    },
    indexes: { byId: primaryKey(['userId']) },
  });

/** Holds an e-mail address for one user: written with the user in one transaction, only if absent. */
export const userEmailEntity = () =>
  new Entity({
    model: model('userEmail'),
    attributes: {
      email: { type: 'string', required: true },
      userId: { type: 'string', required: true },
    },
    indexes: { byEmail: primaryKey(['email']) },
  });

/**
 * The deployment's accounts (DECISIONS §20): one item, `$licensing#accounts`, whose `accounts` every account's creation
 * adds one to in its own transaction. Under `registration=invite` an address without an invitation registers only by
 * creating it, on condition that it is absent: so only as the deployment's first account.
 */
export const deploymentAccountsEntity = () =>
  new Entity({
    model: model('deploymentAccounts'),
    attributes: {
      accounts: { type: 'number', required: true, default: 0 },
    },
    indexes: { singleton: { pk: { field: 'pk', composite: [], casing: 'none', template: `$${SERVICE_NAME}#accounts` }, sk: { field: 'sk', composite: [], casing: 'none' } } },
  });
