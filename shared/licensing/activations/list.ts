import { type ACTIVATION_STATUSES, counterNames, readCounter } from '../../platform/data/index.js';
import { type Deps, type Page, pageOf } from '../../platform/index.js';
import type { LicenseItem } from '../licenses/license-view.js';
import { toActivationListItem, type ActivationItem } from './activation-view.js';
import { withLastChecks } from './last-check.js';
import { readLicenseById } from './license-by-id.js';

type ActivationStatus = (typeof ACTIVATION_STATUSES)[number];
export type ActivationListItem = ReturnType<typeof toActivationListItem>;
export type ActivationFilter = { page: number; perPage: number; licenseId?: string; status?: ActivationStatus };

/**
 * A tenant's activations, newest first. Unfiltered or by status: one index query of the first
 * `page × perPage` items and the total from the tenant's counters. By license: that license's
 * activations (a few per seat) are read whole and counted. Another tenant's license lists nothing.
 * The page's active activations take their last check from their domain items (one batch read).
 */
export async function listActivations(deps: Pick<Deps, 'data'>, tenantId: string, filter: ActivationFilter): Promise<Page<ActivationListItem>> {
  const { page, perPage } = filter;
  const { activation, counter } = deps.data.entities;
  let items: ActivationItem[];
  let total: number;
  let knownLicense: LicenseItem | undefined;
  if (filter.licenseId !== undefined) {
    knownLicense = await readLicenseById(deps, filter.licenseId);
    if (!knownLicense || knownLicense.tenantId !== tenantId) return pageOf([], page, perPage, 0);
    const { data } = await activation.query.byLicense({ licenseId: filter.licenseId }).go({ pages: 'all', order: 'desc' });
    const matching = data.filter((a) => !filter.status || a.status === filter.status);
    total = matching.length;
    items = matching.slice((page - 1) * perPage, page * perPage);
  } else {
    const wanted = page * perPage;
    const query = filter.status
      ? activation.query.byTenantStatus({ tenantId, status: filter.status })
      : activation.query.byTenant({ tenantId });
    const [{ data }, count] = await Promise.all([
      query.go({ order: 'desc', count: wanted, pages: 'all' }),
      readCounter(counter, tenantId, counterName(filter.status)),
    ]);
    items = data.slice((page - 1) * perPage, wanted);
    total = count;
  }
  const [owners, shown] = await Promise.all([loadOwners(deps, items, knownLicense), withLastChecks(deps, items)]);
  const listed = shown.flatMap((item) => {
    const license = owners.licenses.get(item.licenseId);
    const product = owners.products.get(item.productId);
    return license && product ? [toActivationListItem(item, { license, product })] : [];
  });
  return pageOf(listed, page, perPage, total);
}

function counterName(status: ActivationStatus | undefined): string {
  const [all, byStatus] = counterNames.activations(status ?? 'active');
  return status ? byStatus! : all!;
}

/** The licenses and products of a page of activations, read in batches (one per entity kind). */
async function loadOwners(deps: Pick<Deps, 'data'>, items: ActivationItem[], knownLicense: LicenseItem | undefined) {
  const { licenseRef, license, product } = deps.data.entities;
  const licenseIds = [...new Set(items.map((a) => a.licenseId))].filter((id) => id !== knownLicense?.licenseId);
  const productIds = [...new Set(items.map((a) => a.productId))];
  const [refs, products] = await Promise.all([
    licenseIds.length ? licenseRef.get(licenseIds.map((licenseId) => ({ licenseId }))).go() : { data: [] },
    productIds.length ? product.get(productIds.map((productId) => ({ productId }))).go() : { data: [] },
  ]);
  const keys = refs.data.map((ref) => ({ licenseKey: ref.licenseKey }));
  const licenses = keys.length ? (await license.get(keys).go()).data : [];
  return {
    licenses: new Map([...licenses, ...(knownLicense ? [knownLicense] : [])].map((l) => [l.licenseId, l])),
    products: new Map(products.data.map((p) => [p.productId, p])),
  };
}
