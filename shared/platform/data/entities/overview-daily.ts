import { Entity } from 'electrodb';
import { OVERVIEW_METRICS } from '../attribute-values.js';
import { model } from '../keys.js';
import { SERVICE_NAME } from '../table-schema.js';

/**
 * A tenant's overview partition for one product, or for all of them (`scope` `all`): `$licensing#overview_<tenantId>#<scope>`.
 * The functions that bump it (Stripe webhook, usage writer) are given this partition and nothing else of the tenant's.
 */
const overviewKey = <const S extends readonly string[]>(sk: S) =>
  ({
    pk: { field: 'pk', composite: ['tenantId', 'scope'] as const, casing: 'none', template: `$${SERVICE_NAME}#overview_\${tenantId}#\${scope}` },
    sk: { field: 'sk', composite: sk, casing: 'none' },
  }) as const;

/** One count of the overview: bumped (`ADD`) in the transaction of the write it counts, or by the usage writer. */
export const overviewCountEntity = () =>
  new Entity({
    model: model('overviewCount'),
    attributes: {
      tenantId: { type: 'string', required: true },
      scope: { type: 'string', required: true },
      day: { type: 'string', required: true },
      metric: { type: OVERVIEW_METRICS, required: true },
      name: { type: 'string', required: true },
      count: { type: 'number', required: true, default: 0 },
    },
    indexes: { byScope: overviewKey(['day', 'metric', 'name']) },
  });

/**
 * The HyperLogLog sketch of the distinct sites seen on one day (shared/insights/overview/hyperloglog.ts): `registers` is its
 * 4,096 one-byte registers, `revision` what its last writer read (a writer that read an older one writes nothing
 * and merges again). Its own entity, so a range of counts never reads the sketches' 4 KB a day.
 */
export const installSketchEntity = () =>
  new Entity({
    model: model('installSketch'),
    attributes: {
      tenantId: { type: 'string', required: true },
      scope: { type: 'string', required: true },
      day: { type: 'string', required: true },
      registers: { type: 'any', required: true },
      revision: { type: 'number', required: true },
    },
    indexes: { byScope: overviewKey(['day']) },
  });
