import { Entity } from 'electrodb';
import { model, primaryKey } from '../keys.js';

/** The providers of shared/identity/accounts/oauth-providers.ts. */
const PROVIDERS = ['google', 'github'] as const;

/**
 * A sign-in started with an OAuth provider (`GET /api/oauth/{provider}`), keyed by the SHA-256 of its `state`. It
 * holds the provider, the SHA-256 of the random value of the browser's `oauth_state` cookie (so that only the
 * browser that started it can finish it) and, for Google, the PKCE code verifier. The callback deletes it on
 * condition that the provider and browser match and `ttl` is still ahead: a state is taken once. TTL: 10 minutes.
 */
export const oauthStateEntity = () =>
  new Entity({
    model: model('oauthState'),
    attributes: {
      stateHash: { type: 'string', required: true },
      provider: { type: PROVIDERS, required: true },
      browserHash: { type: 'string', required: true },
      codeVerifier: { type: 'string' },
      createdAt: { type: 'string', required: true },
      /** Epoch seconds: past it the state is refused, and DynamoDB's TTL removes the item. */
      ttl: { type: 'number', required: true },
    },
    indexes: { byState: primaryKey(['stateHash']) },
  });

/**
 * A provider account (Google's `sub`, GitHub's numeric id) linked to one user: created only if absent, in the same
 * transaction as the user it creates or the link it adds to the user's `providers`, so an account signs in as one
 * user only.
 */
export const userIdentityEntity = () =>
  new Entity({
    model: model('userIdentity'),
    attributes: {
      provider: { type: PROVIDERS, required: true },
      subject: { type: 'string', required: true },
      userId: { type: 'string', required: true },
      /** The verified e-mail the provider gave when the account was linked. */
      email: { type: 'string', required: true },
      linkedAt: { type: 'string', required: true },
    },
    indexes: { byAccount: primaryKey(['provider', 'subject']) },
  });
