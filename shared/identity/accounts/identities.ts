import { transact, writeItem } from '../../platform/data/index.js';
import { type Deps, newId, type RegistrationMode, ServiceUnavailableError } from '../../platform/index.js';
import { deleteAllWebhooks } from '../../messaging/index.js';
import { withdrawAllInvitations } from '../teams/invitations.js';
import { removeAllMembers } from '../teams/members.js';
import { OAuthFailure } from './oauth-failure.js';
import type { ProviderProfile } from './oauth-providers.js';
import { revokeAllApiKeys } from './api-keys.js';
import { admissionItems, admissionOf } from './registration.js';
import { endOtherSessions } from './sessions.js';
import { getUser, isEmailVerified, type UserItem } from './users.js';

/**
 * What a takeover (DECISIONS §13, §20) ends in the account's tenant beyond what identity and messaging hold: given by the
 * function that signs in, so that the contexts above (billing: the payment provider's connection) take part without
 * identity knowing them.
 */
export type TakeoverHook = (tenantId: string) => Promise<void>;

/** `registration`: who may create an account (a first sign-in makes one); `onTakeover`: see `TakeoverHook`. */
export type IdentityDeps = Pick<Deps, 'data' | 'clock'> & { config: { registration: RegistrationMode }; onTakeover: TakeoverHook };

/** Rounds of read-then-conditional-write before giving up on a provider account that keeps changing under us. */
const MAX_ROUNDS = 3;

/**
 * The user a provider account signs in as, in this order:
 * 1. the user the account is linked to (whatever e-mail the provider gives today);
 * 2. else, with a verified e-mail only, the user who holds that e-mail, linking the account to them; when that user's
 *    address is not verified, the account is taken over (DECISIONS §13, `linkAccount`);
 * 3. else, with a verified e-mail only, a new user with that e-mail, no password, and the account linked, as the
 *    deployment's registration setting allows (DECISIONS §20; else `registration_closed`).
 * An account without a verified e-mail is refused (`email_not_verified`) unless already linked: an unverified
 * address never reaches an existing account, and never claims one for a new user (whose e-mail a later verified
 * sign-in, or the address's owner registering, would otherwise find taken by someone else).
 *
 * The reads only choose the path; the rules are held by the writes. The identity item is created only if absent (one
 * user per provider account), the e-mail item likewise for a new user (one user per e-mail), and a link holds only while
 * the e-mail item still names the user read. A write refused because a concurrent sign-in got there first is answered
 * by reading again: the next round finds what it wrote.
 */
export async function userForProviderAccount(deps: IdentityDeps, profile: ProviderProfile): Promise<UserItem> {
  const { userIdentity, userEmail } = deps.data.entities;
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const { data: identity } = await userIdentity.get({ provider: profile.provider, subject: profile.subject }).go({ consistent: true });
    if (identity) {
      const user = await getUser(deps, identity.userId);
      if (!user) throw new Error(`identity ${profile.provider} names a user that does not exist`);
      return user;
    }
    const email = profile.verifiedEmail;
    if (!email) throw new OAuthFailure('email_not_verified');
    const { data: owner } = await userEmail.get({ email }).go({ consistent: true });
    const user = owner ? await linkAccount(deps, profile, email, owner.userId) : await createUser(deps, profile, email);
    if (user) return user;
  }
  throw new ServiceUnavailableError();
}

/**
 * Links the account to the user holding its verified e-mail; undefined when a concurrent write came first.
 * The takeover rule (DECISIONS §13, §20): whoever registered an address they could not verify may not be its owner, who
 * has now proved it through the provider. So when the holder's address is not verified, its password is removed, then
 * every session and API key of the account ends, and everything through which the registrant could still act or be
 * paid in the tenant (members, invitations, webhooks, the payment provider), and only then is the account linked,
 * marking the address verified. A holder whose address is verified keeps its password, sessions, keys and tenant.
 */
async function linkAccount(deps: IdentityDeps, profile: ProviderProfile, email: string, userId: string): Promise<UserItem | undefined> {
  const holder = await getUser(deps, userId);
  if (!(holder && isEmailVerified(holder)) && !(await endRegistrantsAccess(deps, userId, email))) return undefined;
  const now = deps.clock.now().toISOString();
  const outcome = await transact(deps.data, (tx) => ({
    identity: tx.userIdentity.create({ provider: profile.provider, subject: profile.subject, userId, email, linkedAt: now }).commit(),
    emailOwner: tx.userEmail
      .check({ email })
      .where(({ userId: holder }, { eq }) => eq(holder, userId))
      .commit(),
    user: tx.user.patch({ userId }).add({ providers: [profile.provider] }).set({ emailVerified: true, updatedAt: now }).commit(),
  }));
  if (!outcome.committed) {
    if (outcome.refused('identity') || outcome.refused('emailOwner')) return undefined;
    throw outcome.unexpected();
  }
  return getUser(deps, userId);
}

/**
 * Ends the access of whoever registered an unverified address: the password goes (on condition that the address is
 * still the user's and still not verified; false when it is not, and the sign-in reads again), then every session and
 * API key, then the tenant's members, invitations and webhooks, and what `onTakeover` ends. In this order a password
 * login checked just before cannot leave a session behind (startPasswordSession), and a sign-in that fails before its
 * link repeats all of it, as the address is still not verified.
 */
async function endRegistrantsAccess(deps: IdentityDeps, userId: string, email: string): Promise<boolean> {
  const removed = await writeItem(() =>
    deps.data.entities.user
      .patch({ userId })
      .remove(['passwordHash'])
      .set({ updatedAt: deps.clock.now().toISOString() })
      .where(({ email: address, emailVerified }, { eq, notExists }) => `${eq(address, email)} AND (${notExists(emailVerified)} OR ${eq(emailVerified, false)})`)
      .go({ response: 'none' }),
  );
  if (!removed.written) return false;
  await endOtherSessions(deps, userId);
  await revokeAllApiKeys(deps, userId);
  // The tenant is the user's own (its id is theirs): an accomplice let in stays no admin, no URL keeps receiving its data.
  await Promise.all([removeAllMembers(deps, userId), withdrawAllInvitations(deps, userId), deleteAllWebhooks(deps, userId), deps.onTakeover(userId)]);
  return true;
}

/**
 * A new user, without a password, with the account linked; undefined when a concurrent write came first. Refused
 * (`registration_closed`) when the deployment's registration setting does not admit the address.
 */
async function createUser(deps: IdentityDeps, profile: ProviderProfile, email: string): Promise<UserItem | undefined> {
  const admission = await admissionOf(deps, deps.config.registration, email);
  const at = deps.clock.now();
  const now = at.toISOString();
  const user = {
    userId: newId('usr'),
    email,
    name: profile.name ?? email.split('@')[0]!,
    role: 'developer',
    ...(profile.avatarUrl && { avatarUrl: profile.avatarUrl }),
    providers: [profile.provider],
    // The provider vouched for the address.
    emailVerified: true,
    createdAt: now,
    updatedAt: now,
  };
  const outcome = await transact(deps.data, (tx) => ({
    identity: tx.userIdentity.create({ provider: profile.provider, subject: profile.subject, userId: user.userId, email, linkedAt: now }).commit(),
    email: tx.userEmail.create({ email, userId: user.userId }).commit(),
    user: tx.user.create(user).commit(),
    admission: admissionItems(tx, admission, at),
  }));
  if (!outcome.committed) {
    if (outcome.refused('identity') || outcome.refused('email')) return undefined;
    if (outcome.refused('admission')) throw new OAuthFailure('registration_closed');
    throw outcome.unexpected();
  }
  return user;
}
