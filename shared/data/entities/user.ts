import { Entity } from 'electrodb';
import { model, primaryKey } from '../keys.js';

export const userEntity = () =>
  new Entity({
    model: model('user'),
    attributes: {
      userId: { type: 'string', required: true },
      email: { type: 'string', required: true },
      name: { type: 'string', required: true },
      role: { type: 'string', required: true, default: 'developer' },
      avatarUrl: { type: 'string' },
      passwordHash: { type: 'string', required: true },
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

/** Failed-login counter per e-mail (known or not), in a fixed one-minute window. */
export const loginThrottleEntity = () =>
  new Entity({
    model: model('loginThrottle'),
    attributes: {
      email: { type: 'string', required: true },
      failures: { type: 'number', required: true },
      windowStartedAt: { type: 'number', required: true },
      ttl: { type: 'number', required: true },
    },
    indexes: { byEmail: primaryKey(['email']) },
  });
