import { Entity } from 'electrodb';
import { globalIndex, model, primaryKey } from '../keys.js';

/**
 * A user's place in another user's tenant (`teamId`, the owner's user id) and their role there (DECISIONS §17). The
 * owner has none: a tenant's owner is the user whose id it is. Keyed by team and user, so the check every request of a
 * member makes is one key lookup; the index lists a user's teams.
 */
export const membershipEntity = () =>
  new Entity({
    model: model('membership'),
    attributes: {
      teamId: { type: 'string', required: true },
      userId: { type: 'string', required: true },
      role: { type: 'string', required: true },
      joinedAt: { type: 'string', required: true },
    },
    indexes: {
      byTeam: primaryKey(['teamId'], ['userId']),
      byUser: globalIndex(1, ['userId'], ['teamId']),
    },
  });

/**
 * An invitation to a team, keyed by its token's SHA-256 (the token itself is only in the e-mail); listed by team, and by
 * the invited address (an invite-only deployment lets an address with a pending invitation register, DECISIONS §20).
 */
export const invitationEntity = () =>
  new Entity({
    model: model('invitation'),
    attributes: {
      tokenHash: { type: 'string', required: true },
      invitationId: { type: 'string', required: true },
      teamId: { type: 'string', required: true },
      email: { type: 'string', required: true },
      role: { type: 'string', required: true },
      invitedBy: { type: 'string', required: true },
      createdAt: { type: 'string', required: true },
      expiresAt: { type: 'string', required: true },
      /** Epoch seconds: DynamoDB's TTL removes expired invitations (late; acceptance checks `expiresAt`). */
      ttl: { type: 'number', required: true },
    },
    indexes: {
      byToken: primaryKey(['tokenHash']),
      byTeam: globalIndex(1, ['teamId'], ['invitationId']),
      byEmail: globalIndex(2, ['email'], ['invitationId']),
    },
  });
