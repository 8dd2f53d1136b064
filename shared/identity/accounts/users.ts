import { BadRequestError, ConflictError, type Deps, ForbiddenError, newId, NotFoundError, type RegistrationMode, TooManyRequestsError, UnauthorizedError } from '../../platform/index.js';
import { transact } from '../../platform/data/index.js';
import { RATE_LIMITS, type RateLimiter } from '../../platform/rate-limits/index.js';
import { verificationSlots } from './email-verification.js';
import { decoyPasswordHash, hashPassword, verifyPassword } from './passwords.js';
import { admissionItems, admissionOf, REGISTRATION_CLOSED } from './registration.js';
import { knownDevice, rememberDevice } from './known-devices.js';
import { endOtherSessions, startPasswordSession, startSession } from './sessions.js';

type AccountDeps = Pick<Deps, 'data' | 'clock'>;
/** What hashes or checks a password: the scrypt cost of new hashes comes from the configuration. */
type PasswordDeps = AccountDeps & { config: Pick<Deps['config'], 'passwordHashCost'> };

/**
 * A user as every route shows it. `providers`: the OAuth providers linked to the account, sorted; `hasPassword`:
 * false for an account created by OAuth sign-in until a password is set (change-password then needs no current one);
 * `emailVerified`: the address is the user's (its link was opened, or Google or GitHub vouched for it).
 */
export type PublicUser = {
  id: string;
  email: string;
  name: string;
  role: string;
  avatarUrl: string | null;
  createdAt: string;
  providers: string[];
  hasPassword: boolean;
  emailVerified: boolean;
};

export type UserItem = {
  userId: string;
  email: string;
  name: string;
  role: string;
  avatarUrl?: string;
  passwordHash?: string;
  providers?: string[];
  emailVerified?: boolean;
  createdAt: string;
};

export function toPublicUser(user: UserItem): PublicUser {
  return {
    id: user.userId,
    email: user.email,
    name: user.name,
    role: user.role,
    avatarUrl: user.avatarUrl ?? null,
    createdAt: user.createdAt,
    providers: [...(user.providers ?? [])].sort(),
    hasPassword: Boolean(user.passwordHash),
    emailVerified: isEmailVerified(user),
  };
}

/**
 * Whether the address is the user's. Users made before verification existed have no such attribute: a password
 * account among them is not verified; an account with only a provider's sign-in (no password) was made from an address
 * the provider vouched for, so it is.
 */
export function isEmailVerified(user: Pick<UserItem, 'emailVerified' | 'passwordHash' | 'providers'>): boolean {
  return user.emailVerified ?? (!user.passwordHash && (user.providers?.length ?? 0) > 0);
}

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** DECISIONS §20: what an account whose address is not verified is told on the routes that reach beyond it. */
export const VERIFY_FIRST = 'Verify your e-mail address first';

/** 403 `Verify your e-mail address first` unless the user's address is verified (DECISIONS §20); one strongly consistent read. */
export async function requireVerifiedAddress(deps: Pick<Deps, 'data'>, userId: string): Promise<void> {
  const { data: user } = await deps.data.entities.user.get({ userId }).go({ consistent: true });
  if (!user || !isEmailVerified(user)) throw new ForbiddenError(VERIFY_FIRST);
}

const INVALID_LOGIN = 'Invalid email or password';

/**
 * A new account with a password, and the e-mail with the link that verifies its address (DECISIONS §13), queued in the
 * same transaction. Until that link is opened, a Google or GitHub sign-in with the address takes the account over.
 * Under `registration=invite` only the deployment's first account or an address with a pending invitation (DECISIONS
 * §20): otherwise 403, before a taken address is told apart (409).
 */
export async function registerUser(
  deps: AccountDeps & { config: Pick<Deps['config'], 'passwordHashCost'> & { registration: RegistrationMode } },
  input: { email: string; password: string; name?: string },
  baseUrl: string,
  deviceToken?: string,
): Promise<{ user: PublicUser; token: string; device: string }> {
  const email = normalizeEmail(input.email);
  const admission = await admissionOf(deps, deps.config.registration, email);
  const now = deps.clock.now();
  const user = {
    userId: newId('usr'),
    email,
    name: input.name?.trim() || email.split('@')[0]!,
    role: 'developer',
    passwordHash: await hashPassword(input.password, deps.config.passwordHashCost),
    emailVerified: false,
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  // The e-mail item exists only if absent: uniqueness holds under concurrent registrations.
  const outcome = await transact(deps.data, (tx) => ({
    email: tx.userEmail.create({ email, userId: user.userId }).commit(),
    user: tx.user.create(user).commit(),
    admission: admissionItems(tx, admission, now),
    ...verificationSlots(tx, user, baseUrl, now),
  }));
  if (!outcome.committed) {
    if (outcome.refused('admission')) throw new ForbiddenError(REGISTRATION_CLOSED);
    if (outcome.refused('email')) throw new ConflictError('Email already registered');
    throw outcome.unexpected();
  }
  const token = await startSession(deps, user.userId);
  return { user: toPublicUser(user), token, device: await rememberDevice(deps, deviceToken, email) };
}

/** Where a login attempt's token came from: the account's bucket, the bucket of a browser known to it, or the overflow. */
type LoginPath = 'account' | 'device' | 'overflow';

async function findUserByEmail(deps: AccountDeps, email: string) {
  const { data: owner } = await deps.data.entities.userEmail.get({ email }).go({ consistent: true });
  if (!owner) return undefined;
  const { data: user } = await deps.data.entities.user.get({ userId: owner.userId }).go({ consistent: true });
  return user ?? undefined;
}

/**
 * An unknown e-mail and a wrong password get the same answer, after the same work. Each attempt takes a token from
 * the account's login bucket before the password is checked, so parallel guesses cannot pass the limit; a successful
 * login fills the bucket again. `network` is the caller's address (IPv6: its /64): while the account's bucket is empty,
 * an attempt from a browser that signed in to the account before (`device`: its cookie's token), or from an address that
 * has not failed at the account, is still checked (`takeLoginToken`), so that someone guessing from elsewhere cannot lock
 * the owner out. A successful login answers the browser's device token for its cookie (shared/identity/accounts/known-devices.ts).
 */
export async function logIn(
  deps: PasswordDeps & { limits: RateLimiter },
  input: { email: string; password: string },
  caller: { network: string; device: string | undefined },
): Promise<{ user: PublicUser; token: string; device: string }> {
  const email = normalizeEmail(input.email);
  const accountAddress = `${email}#${caller.network}`;
  const { path, deviceBucket } = await takeLoginToken(deps, email, accountAddress, caller.device);
  const user = await findUserByEmail(deps, email);
  // An account without a password (created by OAuth sign-in) is answered as a wrong password, after the same work.
  const valid = await verifyPassword(input.password, user?.passwordHash ?? (await decoyPasswordHash(deps.config.passwordHashCost)));
  if (!user?.passwordHash || !valid) {
    // This address has failed at the account now: it no longer passes the account's empty bucket (an overflow attempt took its token already).
    if (path !== 'overflow') await deps.limits.spend(RATE_LIMITS.loginEmailAddress, accountAddress);
    throw new UnauthorizedError(INVALID_LOGIN);
  }
  await Promise.all([
    deps.limits.refill(RATE_LIMITS.loginEmail, email),
    deps.limits.refill(RATE_LIMITS.loginEmailAddress, accountAddress),
    deps.limits.refill(RATE_LIMITS.loginEmailOverflow, email),
    deviceBucket && deps.limits.refill(RATE_LIMITS.loginDevice, deviceBucket),
  ]);
  // Only while the password checked is still the account's: one removed meanwhile (a takeover, DECISIONS §13) signs nobody in.
  const token = await startPasswordSession(deps, user.userId, user.passwordHash);
  if (!token) throw new UnauthorizedError(INVALID_LOGIN);
  return { user: toPublicUser(user), token, device: await rememberDevice(deps, caller.device, email) };
}

/**
 * A token of the account's login bucket; when it is empty, one of `loginDevice` for a browser that signed in to the
 * account before, or else one of `loginEmailAddress` (this address has not failed at the account, and no other attempt of
 * it is being checked) and of `loginEmailOverflow` (the account's bound on such attempts). Refused, the answer is the
 * account bucket's. Answers the path taken (and the device's bucket, to fill again on success).
 */
async function takeLoginToken(
  deps: AccountDeps & { limits: RateLimiter },
  email: string,
  accountAddress: string,
  deviceToken: string | undefined,
): Promise<{ path: LoginPath; deviceBucket?: string }> {
  const { limits } = deps;
  try {
    await limits.take(RATE_LIMITS.loginEmail, email);
    return { path: 'account' };
  } catch (refused) {
    if (!(refused instanceof TooManyRequestsError)) throw refused;
    const device = await knownDevice(deps, deviceToken, email);
    if (device) {
      const deviceBucket = `${email}#${device}`;
      try {
        await limits.take(RATE_LIMITS.loginDevice, deviceBucket);
      } catch (error) {
        throw error instanceof TooManyRequestsError ? refused : error;
      }
      return { path: 'device', deviceBucket };
    }
    try {
      await limits.take(RATE_LIMITS.loginEmailAddress, accountAddress);
    } catch (error) {
      throw error instanceof TooManyRequestsError ? refused : error;
    }
    try {
      await limits.take(RATE_LIMITS.loginEmailOverflow, email);
    } catch (error) {
      // Nothing was checked: the address has not failed, and keeps its turn for when the overflow has room again.
      await limits.refill(RATE_LIMITS.loginEmailAddress, accountAddress);
      throw error instanceof TooManyRequestsError ? refused : error;
    }
    return { path: 'overflow' };
  }
}

export async function getUser(deps: AccountDeps, userId: string) {
  const { data: user } = await deps.data.entities.user.get({ userId }).go({ consistent: true });
  return user ?? undefined;
}

export async function updateProfile(
  deps: AccountDeps,
  userId: string,
  changes: { name?: string; avatarUrl?: string | null },
): Promise<PublicUser> {
  const { avatarUrl, ...rest } = changes;
  // A transaction (its audit entry rides with it), then the user as written.
  const outcome = await transact(deps.data, (tx) => {
    const patch = tx.user.patch({ userId }).set({ ...rest, updatedAt: deps.clock.now().toISOString() });
    return { user: (avatarUrl === null ? patch.remove(['avatarUrl']) : patch.set(avatarUrl ? { avatarUrl } : {})).commit() };
  });
  const user = outcome.committed ? await getUser(deps, userId) : undefined;
  if (!user) throw new NotFoundError('User not found');
  return toPublicUser(user);
}

/**
 * Changes the password and ends every other session of the user. A user without a password (created by OAuth
 * sign-in) sets the first one without `currentPassword` (any given is not checked); from then on it is required.
 */
export async function changePassword(
  deps: PasswordDeps,
  userId: string,
  input: { currentPassword?: string; newPassword: string },
  keepSessionHash: string,
): Promise<void> {
  const user = await getUser(deps, userId);
  if (!user) throw new NotFoundError('User not found');
  const current = user.passwordHash;
  if (current !== undefined) {
    if (input.currentPassword === undefined) throw new BadRequestError('currentPassword is required');
    if (!(await verifyPassword(input.currentPassword, current))) throw new BadRequestError('Current password is incorrect');
  }
  const passwordHash = await hashPassword(input.newPassword, deps.config.passwordHashCost);
  // Written only over the hash that was checked (or over none, for the first password): two concurrent changes
  // cannot both win with different passwords, and a first password is set once without a current one.
  const outcome = await transact(deps.data, (tx) => ({
    user: tx.user
      .patch({ userId })
      .set({ passwordHash, updatedAt: deps.clock.now().toISOString() })
      .where(({ passwordHash: stored }, { eq, notExists }) => (current === undefined ? notExists(stored) : eq(stored, current)))
      .commit(),
  }));
  if (!outcome.committed) throw new ConflictError('Password was changed concurrently; retry');
  await endOtherSessions(deps, userId, keepSessionHash);
}
