/**
 * DECISIONS §17: the roles a user holds in a tenant, and the permissions each grants. Every management route names
 * one permission (its route table entry, functions/management/route.ts); this table is the only place a permission is
 * given to roles, and docs/api.md's route × role matrix is generated from both.
 */
export const ROLES = ['owner', 'admin', 'developer', 'support', 'viewer'] as const;
export type Role = (typeof ROLES)[number];

/** The roles an invitation, a member or an API key may be given: there is exactly one owner, the tenant's own user. */
export const ASSIGNABLE_ROLES = ['admin', 'developer', 'support', 'viewer'] as const;
export type AssignableRole = (typeof ASSIGNABLE_ROLES)[number];

export const ROLE_REFUSED = 'Your role does not allow this';

/** What a route needs, by what it touches. */
export const PERMISSIONS = {
  /** The caller's own account (profile, password, session, teams): any signed-in user, whatever their role. */
  account: 'The caller\'s own account',
  /** Reading the tenant's data that holds no secret. */
  read: 'Read data without secrets',
  /** Reading a secret the tenant holds (a webhook's signing secret). */
  readSecrets: 'Read secrets',
  catalog: 'Products, plans and releases: create, change, delete',
  licenses: 'Licenses: create, delete',
  licenseSupport: 'Licenses: update, revoke, regenerate, transfer',
  activationSupport: 'Activations: deactivate',
  customers: 'Customers: create, delete, erase',
  customerSupport: 'Customers: update, export',
  webhooks: 'Webhooks: create, change, delete, test, redeliver',
  apiKeys: 'API keys: create, revoke',
  data: 'Account exports and imports',
  paymentProvider: 'The payment provider: read, connect, change tax settings, disconnect',
  /** Money the tenant's customers pay (DECISIONS §17): coupons and subscription plan changes, owner's and admin's alone, as the payment provider is. */
  billing: 'Billing: coupons create and deactivate, subscription plan changes',
  team: 'Team: invite, change roles, remove',
  /** How the hosted customer portal shows the vendor, and whether it is on (DECISIONS §25): owner's and admin's, reading included. */
  portal: 'The hosted customer portal: read and change its settings',
  auditLog: 'Audit log: read, verify',
} as const;
export type Permission = keyof typeof PERMISSIONS;
/** A route's declared permission (shared/platform/http/route.ts keeps it as a plain name). */
export const isPermission = (name: string | undefined): name is Permission => name !== undefined && Object.hasOwn(PERMISSIONS, name);

const everything = Object.keys(PERMISSIONS) as Permission[];
const supportDesk: Permission[] = ['account', 'read', 'licenseSupport', 'activationSupport', 'customerSupport'];

export const ROLE_PERMISSIONS: Record<Role, ReadonlySet<Permission>> = {
  owner: new Set(everything),
  // Everything but the owner's own account and deleting it, which no tenant route reaches.
  admin: new Set(everything),
  developer: new Set([...supportDesk, 'readSecrets', 'catalog', 'licenses', 'customers', 'webhooks', 'apiKeys', 'data']),
  support: new Set(supportDesk),
  viewer: new Set(['account', 'read']),
};

export const roleAllows = (role: Role, permission: Permission) => ROLE_PERMISSIONS[role].has(permission);

/** Roles by how much they may do: a caller may not hand out a role above their own (an invitation, an API key). */
const RANK: Record<Role, number> = { owner: 4, admin: 3, developer: 2, support: 1, viewer: 0 };
export const roleAtMost = (role: Role, ceiling: Role) => RANK[role] <= RANK[ceiling];
