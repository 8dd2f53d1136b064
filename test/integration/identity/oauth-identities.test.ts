import { randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { userForProviderAccount } from '../../../shared/identity/accounts/identities.js';
import { startPasswordSession } from '../../../shared/identity/accounts/sessions.js';
import type { ProviderProfile } from '../../../shared/identity/accounts/oauth-providers.js';
import type { DataService } from '../../../shared/platform/data/service.js';
import { ServiceUnavailableError } from '../../../shared/platform/errors.js';
import { systemClock } from '../../../shared/platform/runtime.js';
import { newTenant, unverifiedTenant, uniqueEmail } from '../../support/client.js';
import { localData } from '../../support/table.js';

/**
 * Two sign-ins of one provider account at once, against DynamoDB Local. Which one reads first cannot be arranged over
 * HTTP, so the late one is played by a data service whose first reads of the identity and e-mail items answer
 * "nothing" (as they would have, just before the other's transaction): the rules must then be held by the writes.
 */
function readingStale(data: DataService, stale: { userIdentity?: number; userEmail?: number }): DataService {
  const left = { ...stale };
  const entities = new Proxy(data.entities, {
    get(target, name: keyof DataService['entities']) {
      const entity = target[name];
      if (name !== 'userIdentity' && name !== 'userEmail') return entity;
      return new Proxy(entity, {
        get(inner, property) {
          if (property !== 'get') return Reflect.get(inner, property);
          return (key: never) => {
            const read = (inner as { get: (key: never) => { go: (options?: object) => Promise<unknown> } }).get(key);
            return { go: async (options?: object) => ((left[name] ?? 0) > 0 ? (left[name]!--, { data: null }) : read.go(options)) };
          };
        },
      });
    },
  });
  return { ...data, entities };
}

/** A sign-in's dependencies on an open deployment; a takeover's hook beyond identity does nothing here. */
const signInDeps = (data: DataService) => ({ data, clock: systemClock, config: { registration: 'open' as const }, onTakeover: async () => undefined });

const profileOf = (email: string, provider: ProviderProfile['provider'] = 'google'): ProviderProfile => ({
  provider,
  subject: String(randomInt(1, 2 ** 47)),
  verifiedEmail: email,
  name: 'Racer',
});

async function identitiesOf(userId: string) {
  const { data: user } = await localData().entities.user.get({ userId }).go({ consistent: true });
  return user;
}

describe('one user per provider account, one per e-mail, under concurrent sign-ins', () => {
  it('a new account signing in twice at once makes one user: the late write is refused and the next read finds the first', async () => {
    const data = localData();
    const profile = profileOf(uniqueEmail('race'));
    const first = await userForProviderAccount(signInDeps(data), profile);
    const second = await userForProviderAccount(signInDeps(readingStale(data, { userIdentity: 1, userEmail: 1 })), profile);
    expect(second.userId).toBe(first.userId);
    const { data: owner } = await data.entities.userEmail.get({ email: profile.verifiedEmail! }).go({ consistent: true });
    expect(owner?.userId).toBe(first.userId);
  });

  it('a link racing a sign-up of the same e-mail joins the user who got the e-mail', async () => {
    const data = localData();
    const email = uniqueEmail('race-link');
    const google = await userForProviderAccount(signInDeps(data), profileOf(email, 'google'));
    // GitHub's sign-in read no owner of the e-mail (before Google's created the user): its new user is refused.
    const github = await userForProviderAccount(signInDeps(readingStale(data, { userEmail: 1 })), profileOf(email, 'github'));
    expect(github.userId).toBe(google.userId);
    expect((await identitiesOf(google.userId))?.providers?.sort()).toEqual(['github', 'google']);
  });

  it('a link racing another link of the same account is refused, and the account signs in as the user it was linked to', async () => {
    const tenant = await newTenant();
    const data = localData();
    const profile = profileOf(tenant.email, 'github');
    const first = await userForProviderAccount(signInDeps(data), profile);
    expect(first.userId).toBe(tenant.userId);
    const second = await userForProviderAccount(signInDeps(readingStale(data, { userIdentity: 1 })), profile);
    expect(second.userId).toBe(tenant.userId);
    expect((await identitiesOf(tenant.userId))?.providers).toEqual(['github']);
  });

  it('gives up with 503 rather than looping when every read keeps missing what the writes find', async () => {
    const data = localData();
    const profile = profileOf(uniqueEmail('stuck'));
    await userForProviderAccount(signInDeps(data), profile);
    const stuck = readingStale(data, { userIdentity: 99, userEmail: 99 });
    await expect(userForProviderAccount(signInDeps(stuck), profile)).rejects.toBeInstanceOf(ServiceUnavailableError);
  });

  it('a password login checked just before a takeover makes no session after it', async () => {
    const [registrant, owner] = [await unverifiedTenant(), await newTenant()];
    const data = localData();
    const deps = signInDeps(data);
    const passwordOf = async (userId: string) => (await data.entities.user.get({ userId }).go({ consistent: true })).data!.passwordHash!;
    // The registrant's login read the password; the takeover removes it before the login writes its session.
    const checked = await passwordOf(registrant.userId);
    await userForProviderAccount(deps, profileOf(registrant.email));
    expect(await startPasswordSession(deps, registrant.userId, checked)).toBeUndefined();
    // A password still in place makes the session.
    expect(await startPasswordSession(deps, owner.userId, await passwordOf(owner.userId))).toMatch(/^[a-z2-7]{32}$/);
  });
});
