import { Entity } from 'electrodb';
import { ACTIVATION_STATUSES, ACTIVATION_ENVIRONMENTS } from '../attribute-values.js';
import { globalIndex, model, primaryKey } from '../keys.js';

export const activationEntity = () =>
  new Entity({
    model: model('activation'),
    attributes: {
      activationId: { type: 'string', required: true },
      licenseId: { type: 'string', required: true },
      tenantId: { type: 'string', required: true },
      productId: { type: 'string', required: true },
      /** The hold key: the normalized domain, or for a device `machine:<fingerprint>` (shared/licensing/operations/seat-holder.ts). */
      domain: { type: 'string', required: true },
      /** A device's fingerprint, and the name and platform its client reported (DECISIONS §18); absent for a site. */
      machine: { type: 'string' },
      name: { type: 'string' },
      platform: { type: 'string' },
      ipAddress: { type: 'string', required: true },
      status: { type: ACTIVATION_STATUSES, required: true },
      /**
       * `staging`: a staging or local site, counted in the license's `stagingCount` instead of a seat. Decided when
       * the activation is made and kept, so deactivation frees the counter it took whatever the patterns say by
       * then. Absent (activations made before staging sites existed): production.
       */
      environment: { type: ACTIVATION_ENVIRONMENTS },
      activatedAt: { type: 'string', required: true },
      deactivatedAt: { type: 'string' },
      // Copied from the domain's activeDomain item when it is deactivated (a check never rewrites this item).
      lastCheckedAt: { type: 'string' },
      lastIpAddress: { type: 'string' },
    },
    indexes: {
      byId: primaryKey(['activationId']),
      byLicense: globalIndex(1, ['licenseId'], ['activatedAt', 'activationId']),
      byTenant: globalIndex(2, ['tenantId'], ['activatedAt', 'activationId']),
      byTenantStatus: globalIndex(3, ['tenantId', 'status'], ['activatedAt', 'activationId']),
    },
  });

/**
 * Exists while a domain is active on a license: created only if absent, in the activation transaction,
 * so one domain holds at most one active activation; deleted when it is deactivated.
 * It also carries the active activation's last check (`lastCheckedAt`, `lastIpAddress`): a small item
 * with no index keys, so recording a check is one write unit instead of the activation item's four
 * (its three index copies are rewritten with it). Deactivation copies the last check onto the activation.
 */
export const activeDomainEntity = () =>
  new Entity({
    model: model('activeDomain'),
    attributes: {
      licenseId: { type: 'string', required: true },
      domain: { type: 'string', required: true },
      activationId: { type: 'string', required: true },
      activatedAt: { type: 'string', required: true },
      /** The activation's environment, so a repeated activate answers it without reading the activation. Absent: production. */
      environment: { type: ACTIVATION_ENVIRONMENTS },
      lastCheckedAt: { type: 'string' },
      lastIpAddress: { type: 'string' },
    },
    indexes: { byDomain: primaryKey(['licenseId', 'domain']) },
  });
