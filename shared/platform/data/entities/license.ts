import { Entity } from 'electrodb';
import { CHANNELS, LICENSE_STATUSES } from '../attribute-values.js';
import { globalIndex, model, primaryKey } from '../keys.js';

/**
 * A license, keyed by its key: validate is one strongly consistent GetItem of this item, which holds
 * the whole answer, and activation's seat check is a condition on its `activatedCount` (a staging site's, on its
 * `stagingCount`).
 * Regenerating the key moves the item (delete + put in one transaction); `licenseRef` finds it by id.
 */
export const licenseEntity = () =>
  new Entity({
    model: model('license'),
    attributes: {
      licenseKey: { type: 'string', required: true },
      licenseId: { type: 'string', required: true },
      tenantId: { type: 'string', required: true },
      productId: { type: 'string', required: true },
      planId: { type: 'string' },
      customerId: { type: 'string' },
      customerEmail: { type: 'string', required: true },
      customerName: { type: 'string' },
      status: { type: LICENSE_STATUSES, required: true },
      seats: { type: 'number', required: true },
      /** Active production activations: the seats taken. */
      activatedCount: { type: 'number', required: true, default: 0 },
      /**
       * The seats of a plan the license moves to at its subscription's renewal (a pending downgrade, DECISIONS §20):
       * until then new activations and leases count against the smaller of `seats` and this, so the active sites fit
       * the plan when it applies. Absent: no downgrade pending. Not copied into gsi4/gsi5 (table-schema.ts): only the
       * seat checks read it, from the item itself.
       */
      pendingSeats: { type: 'number' },
      /**
       * Active staging activations (shared/licensing/operations/staging.ts), which take no seat; held below the product's
       * staging limit by the activation's condition. Absent on licenses that never had one: 0.
       */
      stagingCount: { type: 'number' },
      /** The most adventurous release channel the license receives (shared/catalog/releases/channels.ts); absent: `stable`. */
      channel: { type: CHANNELS },
      /** Seats borrowed by leases (shared/licensing/leases/), not held by activations (DECISIONS §18); absent: false. */
      floating: { type: 'boolean' },
      /** How long a lease lives without a heartbeat, 60–86400; absent: 900. */
      leaseSeconds: { type: 'number' },
      /** Null (absent) means lifetime. */
      expiresAt: { type: 'string' },
      /**
       * Set by a failed renewal payment (shared/billing/commerce/payment-failure.ts): the license stays valid until then though its
       * `expiresAt` has passed, and the expiry sweep expires it then. Cleared by the next paid invoice.
       */
      graceUntil: { type: 'string' },
      /** When the trial the license was issued for ends (DECISIONS §15); kept once paid, as a record. */
      trialEndsAt: { type: 'string' },
      /**
       * Keys of its product's features the license carries (DECISIONS §23): its plan's when issued or moved to a plan,
       * then as edited. On the item, so validate's one read brings them. Absent: none.
       */
      features: { type: 'list', items: { type: 'string' } },
      createdAt: { type: 'string', required: true },
      updatedAt: { type: 'string', required: true },
    },
    indexes: {
      byKey: primaryKey(['licenseKey']),
      byTenant: globalIndex(1, ['tenantId'], ['createdAt', 'licenseId']),
      byTenantStatus: globalIndex(2, ['tenantId', 'status'], ['createdAt', 'licenseId']),
      byProduct: globalIndex(3, ['tenantId', 'productId'], ['createdAt', 'licenseId']),
      byProductStatus: globalIndex(4, ['tenantId', 'productId', 'status'], ['createdAt', 'licenseId']),
      byEmail: globalIndex(5, ['tenantId'], ['customerEmail', 'createdAt', 'licenseId']),
    },
  });

/**
 * Finds a license's current key from its stable id (management routes use ids). A deletion marks it (`deletedAt`)
 * in the transaction that deletes the license, and removes it once the license's last activation is gone: a
 * deletion cut short is finished by the next one.
 */
export const licenseRefEntity = () =>
  new Entity({
    model: model('licenseRef'),
    attributes: {
      licenseId: { type: 'string', required: true },
      licenseKey: { type: 'string', required: true },
      tenantId: { type: 'string', required: true },
      deletedAt: { type: 'string' },
    },
    indexes: { byId: primaryKey(['licenseId']) },
  });
