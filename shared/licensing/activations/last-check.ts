import { type EntityItem, readAll } from '../../platform/data/index.js';
import type { Deps } from '../../platform/index.js';
import type { ActivationItem } from './activation-view.js';

/**
 * An active activation's last check is kept on its domain's `activeDomain` item (shared/licensing/operations/activity.ts);
 * a deactivated one's on the activation item itself, copied there when it was deactivated.
 */
type LastCheck = { lastCheckedAt?: string; lastIpAddress?: string };

/** A domain's activeDomain item: which activation holds it, and that activation's last check. */
export type DomainHold = EntityItem<'activeDomain'>;
const holdKey = (licenseId: string, domain: string) => `${licenseId}#${domain}`;

/** The last check of an active activation as its domain item holds it; empty when the item holds another or none. */
export function lastCheckIn(hold: DomainHold | null | undefined, activationId: string): LastCheck {
  if (hold?.activationId !== activationId || hold.lastCheckedAt === undefined) return {};
  return { lastCheckedAt: hold.lastCheckedAt, ...(hold.lastIpAddress ? { lastIpAddress: hold.lastIpAddress } : {}) };
}

/**
 * The domain items of these activations' domains, in one batch read per 100 (strongly consistent when a write
 * will condition on what was read). Keys left unprocessed under load are asked for again, then 503.
 */
export async function readDomainHolds(
  deps: Pick<Deps, 'data'>,
  activations: ActivationItem[],
  options: { consistent?: boolean } = {},
): Promise<Map<string, DomainHold>> {
  const holds = new Map<string, DomainHold>();
  // Once each: a lagging index can list a domain's old activation as active beside its new one, and a batch
  // naming one key twice is refused.
  const unique = new Map(activations.map(({ licenseId, domain }) => [holdKey(licenseId, domain), { licenseId, domain }]));
  for (const hold of await readAll([...unique.values()], (keys) => deps.data.entities.activeDomain.get(keys).go(options))) {
    holds.set(holdKey(hold.licenseId, hold.domain), hold);
  }
  return holds;
}

/** The hold of an activation's domain among those read by `readDomainHolds`. */
export const holdOf = (holds: Map<string, DomainHold>, activation: ActivationItem) => holds.get(holdKey(activation.licenseId, activation.domain));

/**
 * The activations as views show them: each active one with the last check its domain item holds. An
 * activation whose domain item holds none keeps what its own item has (checks recorded there before
 * checks moved to the domain item).
 */
export async function withLastChecks(deps: Pick<Deps, 'data'>, activations: ActivationItem[]): Promise<ActivationItem[]> {
  const active = activations.filter((a) => a.status === 'active');
  if (active.length === 0) return activations;
  const holds = await readDomainHolds(deps, active);
  return activations.map((a) => (a.status === 'active' ? { ...a, ...lastCheckIn(holdOf(holds, a), a.activationId) } : a));
}
