import { type EntityItem, transact } from '../../platform/data/index.js';
import type { Deps } from '../../platform/index.js';

/** The vendor's side of the hosted portal (DECISIONS §25), as `GET`/`PUT /api/portal-settings` show it. */
export type PortalSettings = { enabled: boolean; name: string | null; logoUrl: string | null; accentColor: string | null; supportEmail: string | null };
export type PortalSettingsInput = { enabled?: boolean; name?: string | null; logoUrl?: string | null; accentColor?: string | null; supportEmail?: string | null };

export const toPortalSettings = (item: EntityItem<'portalSettings'> | undefined | null): PortalSettings => ({
  enabled: item?.enabled ?? false,
  name: item?.name ?? null,
  logoUrl: item?.logoUrl ?? null,
  accentColor: item?.accentColor ?? null,
  supportEmail: item?.supportEmail ?? null,
});

/** The tenant's settings; a tenant that never saved any has the portal off. */
export async function getPortalSettings(deps: Pick<Deps, 'data'>, tenantId: string): Promise<PortalSettings> {
  const { data } = await deps.data.entities.portalSettings.get({ tenantId }).go({ consistent: true });
  return toPortalSettings(data);
}

/**
 * Changes the settings: a field given replaces its value, `null` clears it, a field left out keeps its value (the
 * portal stays as it was unless `enabled` is given). A transaction, so that the audit entry of the change rides with it
 * (shared/identity/audit/audit-scope.ts).
 */
export async function putPortalSettings(deps: Pick<Deps, 'data' | 'clock'>, tenantId: string, input: PortalSettingsInput): Promise<PortalSettings> {
  const merged = { ...(await getPortalSettings(deps, tenantId)), ...input };
  const item = {
    tenantId,
    enabled: merged.enabled,
    ...(merged.name && { name: merged.name }),
    ...(merged.logoUrl && { logoUrl: merged.logoUrl }),
    ...(merged.accentColor && { accentColor: merged.accentColor }),
    ...(merged.supportEmail && { supportEmail: merged.supportEmail }),
    updatedAt: deps.clock.now().toISOString(),
  };
  const outcome = await transact(deps.data, (tx) => ({ settings: tx.portalSettings.put(item).commit() }));
  if (!outcome.committed) throw outcome.unexpected();
  return toPortalSettings(item);
}
