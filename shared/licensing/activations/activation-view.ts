import type { EntityItem } from '../../platform/data/index.js';

type ActivationItem = EntityItem<'activation'>;

/** An activation as every surface shows it (SERVICE-SPEC §2); list items add `license` and `product`. */
export function toActivation(item: ActivationItem) {
  return {
    id: item.activationId,
    licenseId: item.licenseId,
    // A device's activation is held under `machine:<fingerprint>` (shared/licensing/operations/seat-holder.ts): shown as its machine.
    domain: item.machine === undefined ? item.domain : null,
    machine: item.machine ?? null,
    name: item.name ?? null,
    platform: item.platform ?? null,
    ipAddress: item.ipAddress,
    status: item.status,
    /** `staging`: a staging or local site, which took no seat. */
    environment: item.environment ?? 'production',
    activatedAt: item.activatedAt,
    deactivatedAt: item.deactivatedAt ?? null,
    lastCheckedAt: item.lastCheckedAt ?? null,
  };
}

export type Activation = ReturnType<typeof toActivation>;
export type { ActivationItem };

/** The license and product an activation belongs to, as list items and events show them. */
export type ActivationOwner = {
  license: { licenseId: string; licenseKey: string; customerEmail: string };
  product: { productId: string; name: string };
};

/** An activation list item (SERVICE-SPEC §2): the activation with `license {id, key, customerEmail}` and `product {id, name}`. */
export function toActivationListItem(item: ActivationItem, owner: ActivationOwner) {
  return {
    ...toActivation(item),
    license: { id: owner.license.licenseId, key: owner.license.licenseKey, customerEmail: owner.license.customerEmail },
    product: { id: owner.product.productId, name: owner.product.name },
  };
}
