import type { Deps } from '../../platform/index.js';

/**
 * The vendor's hosted customer portal page for a product (DECISIONS §25), for the e-mails that name a license: only
 * while the vendor has the portal on. One read of the tenant's settings.
 */
export async function portalLinkOf(deps: Pick<Deps, 'data'>, tenantId: string, publicKey: string, baseUrl: string): Promise<string | undefined> {
  const { data } = await deps.data.entities.portalSettings.get({ tenantId }).go({ attributes: ['enabled'] });
  return data?.enabled ? `${baseUrl}/portal?${new URLSearchParams({ public_key: publicKey })}` : undefined;
}
