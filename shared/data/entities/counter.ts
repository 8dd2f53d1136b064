import { Entity } from 'electrodb';
import { model, primaryKey } from '../keys.js';

/**
 * Per-tenant totals kept in the same transactions as the writes they count
 * (e.g. `licenses`, `licenses:status:active`), so list totals cost one read.
 */
export const counterEntity = () =>
  new Entity({
    model: model('counter'),
    attributes: {
      tenantId: { type: 'string', required: true },
      name: { type: 'string', required: true },
      count: { type: 'number', required: true, default: 0 },
    },
    indexes: { byName: primaryKey(['tenantId'], ['name']) },
  });
