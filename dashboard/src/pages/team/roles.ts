/** The roles a member or an invitation may be given (the owner is the account's own user, never assigned). */
export const ROLES = ['admin', 'developer', 'support', 'viewer'] as const;
export type AssignableRole = (typeof ROLES)[number];

/**
 * What each role may do, in words: DECISIONS §17's roles, as shared/identity/teams/roles.ts grants them (docs/api.md
 * has the route × role table).
 */
export const ROLE_ABILITIES: Record<AssignableRole, string> = {
  admin: 'Everything: products, licenses, customers, payments, coupons, the team and the audit log; not the owner’s own account.',
  developer: 'Products, releases, plans, licenses, customers, webhooks, API keys, imports and exports; not payments, coupons, the team or the audit log.',
  support: 'Reads everything but secrets; updates, revokes, regenerates and transfers licenses, deactivates sites, updates and exports customers.',
  viewer: 'Reads everything but secrets; changes nothing.',
};

export const roleName = (role: string) => role.charAt(0).toUpperCase() + role.slice(1);
