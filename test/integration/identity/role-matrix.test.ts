import { beforeAll, describe, expect, it } from 'vitest';
import type { Route } from '../../../shared/platform/http/route.js';
import { roleAllows, type AssignableRole, type Permission, type Role } from '../../../shared/identity/teams/roles.js';
import { Client, newTenant } from '../../support/client.js';
import { inBatches, itemsNaming, pathNaming, permissionRoutes, sendEmpty } from '../../support/management-routes.js';
import { settledSnapshot, snapshotChanges } from '../../support/table-snapshot.js';
import { joinedMember } from '../../support/team.js';

/**
 * DECISIONS §17's permission table, sent over HTTP: every management route that names a permission (read from the
 * route table, so a new route is covered without a change here) as each role of one tenant, signed in and by API key.
 * Path ids name nothing and bodies are empty: a role the table refuses gets the 403 before anything is read (so it
 * learns nothing and nothing is written), a role it allows gets whatever the route answers such a request.
 */
const ROLE_REFUSED = { error: 'Your role does not allow this' };
const SESSION_REQUIRED = { error: 'This route needs a signed-in session' };
const MEMBER_ROLES: AssignableRole[] = ['admin', 'developer', 'support', 'viewer'];

type Caller = { label: string; role: Role; via: 'session' | 'apiKey'; client: Client };
type Call = { caller: Caller; route: Route };

let callers: Caller[];
let userIds: string[];

/** The 403 the permission table (or DECISIONS §13, for a key on the account's own credentials) gives the call, if any. */
function refusal({ caller, route }: Call): object | undefined {
  if (caller.via === 'apiKey' && route.input!.sessionOnly) return SESSION_REQUIRED;
  return roleAllows(caller.role, route.input!.permission as Permission) ? undefined : ROLE_REFUSED;
}

const everyCall = () => callers.flatMap((caller) => permissionRoutes.map((route) => ({ caller, route })));

/** Sends every call and lists those whose answer is not what the permission table says. */
async function mismatches(calls: Call[]): Promise<string[]> {
  const answers = await inBatches(calls, (call) => sendEmpty(call.caller.client, call.route, pathNaming(call.route)));
  return calls.flatMap((call, index) => {
    const { status, body, text } = answers[index]!;
    const refused = refusal(call);
    const label = `${call.caller.label}: ${call.route.method} ${call.route.path} → ${status} ${text}`;
    if (refused) return status === 403 && JSON.stringify(body) === JSON.stringify(refused) ? [] : [`${label} (expected 403 ${JSON.stringify(refused)})`];
    const refusedAnyway = status >= 500 || status === 401 || [ROLE_REFUSED.error, SESSION_REQUIRED.error].includes(body?.error);
    return refusedAnyway ? [`${label} (expected the route's own answer)`] : [];
  });
}

beforeAll(async () => {
  const owner = await newTenant();
  const members = await Promise.all(MEMBER_ROLES.map((role) => joinedMember(owner, role, owner.userId)));
  const keys = await Promise.all(
    MEMBER_ROLES.map(async (role) => {
      const made = await owner.post('/api/api-keys', { name: `${role} key`, role });
      expect(made.status, made.text).toBe(201);
      return Object.assign(new Client(), { bearer: made.body.key as string });
    }),
  );
  userIds = [owner.userId, ...members.map((member) => member.userId)];
  callers = [
    { label: 'owner', role: 'owner', via: 'session', client: owner },
    ...MEMBER_ROLES.map((role, index): Caller => ({ label: `${role} member`, role, via: 'session', client: members[index]! })),
    ...MEMBER_ROLES.map((role, index): Caller => ({ label: `${role} API key`, role, via: 'apiKey', client: keys[index]! })),
  ];
}, 60_000);

describe('every management route × role (DECISIONS §17)', () => {
  it('has routes each role but admin is refused, and routes each is allowed', () => {
    for (const role of MEMBER_ROLES) {
      const allowed = permissionRoutes.filter((route) => roleAllows(role, route.input!.permission as Permission)).length;
      expect(allowed, role).toBeGreaterThan(0);
      if (role === 'admin') expect(allowed, role).toBe(permissionRoutes.length);
      else expect(allowed, role).toBeLessThan(permissionRoutes.length);
    }
  });

  it('refuses each role what the table refuses it, before reading input or anything stored, and writes nothing', async () => {
    const before = await settledSnapshot(() => itemsNaming(userIds));
    expect(await mismatches(everyCall().filter(refusal))).toEqual([]);
    expect(snapshotChanges(before, await itemsNaming(userIds))).toEqual([]);
  }, 120_000);

  it('lets each role through to what the table allows it', async () => {
    expect(await mismatches(everyCall().filter((call) => !refusal(call)))).toEqual([]);
  }, 120_000);
});
