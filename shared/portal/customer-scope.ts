import type { LicenseItem } from '../licensing/index.js';
import type { Deps } from '../platform/index.js';

/** Every portal read is of one developer's (the API key's owner) customer with one e-mail, lower-cased. */
export type PortalScope = { tenantId: string; email: string };

export type PortalDataDeps = Pick<Deps, 'data' | 'clock'>;

/** The customer with this e-mail (the tenant's `customerEmail` item: one GetItem), or undefined. */
export async function customerIdOf(deps: PortalDataDeps, scope: PortalScope): Promise<string | undefined> {
  const { data } = await deps.data.entities.customerEmail.get({ tenantId: scope.tenantId, email: scope.email }).go();
  return data?.customerId;
}

/**
 * The tenant's licenses carrying this e-mail, newest first: one query of the license `byEmail` index (the rule the
 * management API's customer view uses too, so a license shows even before its customer record exists).
 */
export async function licensesOf(deps: PortalDataDeps, scope: PortalScope): Promise<LicenseItem[]> {
  const { data } = await deps.data.entities.license.query
    .byEmail({ tenantId: scope.tenantId, customerEmail: scope.email })
    .go({ order: 'desc', pages: 'all' });
  return data;
}
