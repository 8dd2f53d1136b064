import { holdOf, readDomainHolds } from '../../licensing/index.js';
import { type EntityItem, readAll } from '../../platform/data/index.js';
import { recordOf, type PortableRecord, type RecordType } from '../records.js';
import type { Deps } from '../../platform/index.js';

/**
 * Items read per index query: one batch of the export. Records read per product (plans, releases) or customer
 * (payments, subscriptions) are read for a quarter of that many parents at a time, one query each.
 */
export const EXPORT_PAGE_SIZE = 100;

export type SourceDeps = Pick<Deps, 'data' | 'clock'>;

/** A license's extras for the `csv` format's `licenses.csv` (our import's columns): its active sites and its plan's slug. */
export type LicenseExtras = { domains: string[]; planSlug: string | null };

/** One batch of a record type, and where the next one starts (`null`: the type is done). */
export type Batch = { records: PortableRecord[]; next: string | null; licenseExtras?: Map<string, LicenseExtras> };

export type SourceOptions = { licenseExtras: boolean; pageSize: number };
type Read = (deps: SourceDeps, tenantId: string, cursor: string | null, options: SourceOptions) => Promise<Batch>;

const page = (cursor: string | null, limit: number) => ({ cursor, limit });

/**
 * Where each record type is read from, by key: the tenant's own indexes (products, customers, licenses, activations,
 * webhooks), and per product (plans, releases) or per customer (payments, subscriptions), a page of parents at a time.
 * Never a scan. A batch's `next` is the index's cursor, which the job keeps to resume from.
 */
export const SOURCES: Record<RecordType, Read> = {
  export: async (deps, tenantId) => ({
    records: [{ type: 'export', formatVersion: 1, exportedAt: deps.clock.now().toISOString(), tenantId }],
    next: null,
  }),
  product: async (deps, tenantId, cursor, options) => {
    const { data, cursor: next } = await deps.data.entities.product.query.byTenant({ tenantId }).go(page(cursor, options.pageSize));
    return { records: data.map(recordOf.product), next };
  },
  plan: perProduct(async (deps, productId) => (await deps.data.entities.plan.query.byProduct({ productId }).go({ pages: 'all' })).data.map(recordOf.plan)),
  release: perProduct(async (deps, productId) =>
    (await deps.data.entities.release.query.byProduct({ productId }).go({ pages: 'all' })).data.map(recordOf.release),
  ),
  customer: async (deps, tenantId, cursor, options) => {
    const { data, cursor: next } = await deps.data.entities.customer.query.byTenant({ tenantId }).go(page(cursor, options.pageSize));
    return { records: data.map(recordOf.customer), next };
  },
  license: async (deps, tenantId, cursor, options) => {
    const { data, cursor: next } = await deps.data.entities.license.query.byTenant({ tenantId }).go(page(cursor, options.pageSize));
    return { records: data.map(recordOf.license), next, ...(options.licenseExtras && { licenseExtras: await licenseExtras(deps, data) }) };
  },
  activation: async (deps, tenantId, cursor, options) => {
    const { data, cursor: next } = await deps.data.entities.activation.query.byTenant({ tenantId }).go(page(cursor, options.pageSize));
    // An active site's last check lives on its domain item.
    const holds = await readDomainHolds(deps, data.filter((item) => item.status === 'active'));
    return { records: data.map((item) => recordOf.activation(item, holdOf(holds, item))), next };
  },
  payment: perCustomer(async (deps, customerId) =>
    (await deps.data.entities.payment.query.byCustomer({ customerId }).go({ pages: 'all' })).data.map(recordOf.payment),
  ),
  subscription: perCustomer(async (deps, customerId) =>
    (await deps.data.entities.subscription.query.byCustomer({ customerId }).go({ pages: 'all' })).data.map(recordOf.subscription),
  ),
  webhook: async (deps, tenantId, cursor, options) => {
    const { data, cursor: next } = await deps.data.entities.webhook.query.byTenant({ tenantId }).go(page(cursor, options.pageSize));
    return { records: data.map(recordOf.webhook), next };
  },
};

function perProduct(read: (deps: SourceDeps, productId: string) => Promise<PortableRecord[]>): Read {
  return async (deps, tenantId, cursor, options) => {
    const { data, cursor: next } = await deps.data.entities.product.query
      .byTenant({ tenantId })
      .go({ ...page(cursor, Math.ceil(options.pageSize / 4)), attributes: ['productId', 'createdAt'] });
    return { records: (await Promise.all(data.map(({ productId }) => read(deps, productId)))).flat(), next };
  };
}

function perCustomer(read: (deps: SourceDeps, customerId: string) => Promise<PortableRecord[]>): Read {
  return async (deps, tenantId, cursor, options) => {
    const { data, cursor: next } = await deps.data.entities.customer.query
      .byTenant({ tenantId })
      .go({ ...page(cursor, Math.ceil(options.pageSize / 4)), attributes: ['customerId', 'createdAt'] });
    return { records: (await Promise.all(data.map(({ customerId }) => read(deps, customerId)))).flat(), next };
  };
}

/** The active sites of each license (one query per license) and its plan's slug (one batch read per page). */
async function licenseExtras(deps: SourceDeps, licenses: EntityItem<'license'>[]): Promise<Map<string, LicenseExtras>> {
  const { activation, plan } = deps.data.entities;
  const planIds = [...new Set(licenses.flatMap((license) => (license.planId ? [license.planId] : [])))];
  const plans = await readAll(
    planIds.map((planId) => ({ planId })),
    (keys) => plan.get(keys).go({ attributes: ['planId', 'slug'] }),
  );
  const slugs = new Map(plans.map((item) => [item.planId, item.slug]));
  const entries = await Promise.all(
    licenses.map(async (license): Promise<[string, LicenseExtras]> => {
      const { data } = await activation.query.byLicense({ licenseId: license.licenseId }).go({ pages: 'all', attributes: ['domain', 'status'] });
      const domains = data.filter((item) => item.status === 'active').map((item) => item.domain);
      return [license.licenseId, { domains, planSlug: (license.planId && slugs.get(license.planId)) || null }];
    }),
  );
  return new Map(entries);
}
