import type { Deps } from '../../platform/index.js';

type LinkDeps = Pick<Deps, 'data'>;

const portalPage = (baseUrl: string, publicKey: string) => `${baseUrl}/portal?${new URLSearchParams({ public_key: publicKey })}`;

async function portalIsOn(deps: LinkDeps, tenantId: string): Promise<boolean> {
  const { data } = await deps.data.entities.portalSettings.get({ tenantId }).go({ attributes: ['enabled'] });
  return Boolean(data?.enabled);
}

/**
 * The vendor's hosted customer portal page for a product (DECISIONS §25), for the e-mails that name a license: only
 * while the vendor has the portal on. One read of the tenant's settings.
 */
export async function portalLinkOf(deps: LinkDeps, tenantId: string, publicKey: string, baseUrl: string): Promise<string | undefined> {
  return (await portalIsOn(deps, tenantId)) ? portalPage(baseUrl, publicKey) : undefined;
}

/** The same for a product known by id (the e-mails of a license's later life): its public key read beside the settings. */
export async function productPortalLinkOf(deps: LinkDeps, tenantId: string, productId: string, baseUrl: string | undefined): Promise<string | undefined> {
  if (!baseUrl) return undefined;
  const [on, { data: product }] = await Promise.all([portalIsOn(deps, tenantId), deps.data.entities.product.get({ productId }).go({ attributes: ['publicKey'] })]);
  return on && product ? portalPage(baseUrl, product.publicKey) : undefined;
}
