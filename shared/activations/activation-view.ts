import type { Entities } from '../data/service.js';

type ActivationItem = NonNullable<Awaited<ReturnType<ReturnType<Entities['activation']['get']>['go']>>['data']>;

/** An activation as every surface shows it (SERVICE-SPEC §2); list items add `license` and `product`. */
export function toActivation(item: ActivationItem) {
  return {
    id: item.activationId,
    licenseId: item.licenseId,
    domain: item.domain,
    ipAddress: item.ipAddress,
    status: item.status,
    activatedAt: item.activatedAt,
    deactivatedAt: item.deactivatedAt ?? null,
    lastCheckedAt: item.lastCheckedAt ?? null,
  };
}

export type Activation = ReturnType<typeof toActivation>;
export type { ActivationItem };
