import { Entity } from 'electrodb';
import { globalIndex, model, primaryKey } from '../keys.js';

export const customerEntity = () =>
  new Entity({
    model: model('customer'),
    attributes: {
      customerId: { type: 'string', required: true },
      tenantId: { type: 'string', required: true },
      email: { type: 'string', required: true },
      firstName: { type: 'string' },
      lastName: { type: 'string' },
      company: { type: 'string' },
      phone: { type: 'string' },
      street: { type: 'string' },
      city: { type: 'string' },
      state: { type: 'string' },
      postalCode: { type: 'string' },
      country: { type: 'string' },
      timezone: { type: 'string' },
      metadata: { type: 'any' },
      /** Lower-cased "first last", for prefix search by name. */
      nameSearch: { type: 'string', required: true, default: '' },
      createdAt: { type: 'string', required: true },
      updatedAt: { type: 'string', required: true },
      /** Set when the customer's personal data was erased (shared/portal/customer-data/erasure.ts); absent otherwise. */
      erasedAt: { type: 'string' },
    },
    indexes: {
      byId: primaryKey(['customerId']),
      byTenant: globalIndex(1, ['tenantId'], ['createdAt', 'customerId']),
      byEmail: globalIndex(2, ['tenantId'], ['email']),
      byName: globalIndex(3, ['tenantId'], ['nameSearch', 'customerId']),
    },
  });

/** Holds an e-mail for one customer of a tenant: e-mails are unique per tenant. */
export const customerEmailEntity = () =>
  new Entity({
    model: model('customerEmail'),
    attributes: {
      tenantId: { type: 'string', required: true },
      email: { type: 'string', required: true },
      customerId: { type: 'string', required: true },
    },
    indexes: { byEmail: primaryKey(['tenantId', 'email']) },
  });
