import { normalizeEmail } from '../../customers/index.js';
import { type LICENSE_STATUSES, licenseFilterCounter, readCounter } from '../../platform/data/index.js';
import { type Page, pageOf, paginateInMemory } from '../../platform/index.js';
import { couldBeLicenseKey, hasGeneratedKeyShape } from './license-key.js';
import { settleTenantExpiries } from './expiry-sweep.js';
import { statusAt, toLicense, type License, type LicenseItem } from './license-view.js';
import { productSummaries, type LicenseDeps } from './load-license.js';

export type LicenseStatus = (typeof LICENSE_STATUSES)[number];
export type LicenseListOptions = { page: number; perPage: number; search?: string; status?: LicenseStatus; productId?: string };

/** An e-mail search reads at most this many matches (a prefix as short as one letter can match many). */
const SEARCH_MATCH_LIMIT = 1000;

async function withProducts(deps: LicenseDeps, items: LicenseItem[]): Promise<License[]> {
  const products = await productSummaries(deps, items.map((item) => item.productId));
  return items.map((item) => toLicense(item, products.get(item.productId) ?? { id: item.productId, name: '', slug: '' }, deps.clock.now()));
}

/**
 * Newest first, from the index that matches the filters exactly, so no item is read and thrown away.
 * Page N reads N × per_page index items (DynamoDB cannot skip); the total is one counter read, and a
 * page past the end reads nothing else.
 */
async function listByIndex(deps: LicenseDeps, tenantId: string, options: LicenseListOptions): Promise<Page<License>> {
  const { page, perPage, status, productId } = options;
  const total = await readCounter(deps.data.entities.counter, tenantId, licenseFilterCounter({ status, productId }));
  const skip = (page - 1) * perPage;
  if (skip >= total) return pageOf([], page, perPage, total);
  const q = deps.data.entities.license.query;
  const query =
    productId && status
      ? q.byProductStatus({ tenantId, productId, status })
      : productId
        ? q.byProduct({ tenantId, productId })
        : status
          ? q.byTenantStatus({ tenantId, status })
          : q.byTenant({ tenantId });
  const wanted = page * perPage;
  const { data } = await query.go({ order: 'desc', limit: wanted, count: wanted, pages: 'all' });
  return pageOf(await withProducts(deps, data.slice(skip)), page, perPage, total);
}

const matchesFilters = (item: LicenseItem, { status, productId }: LicenseListOptions, now: Date) =>
  (!status || statusAt(item, now) === status) && (!productId || item.productId === productId);

const newestFirst = (a: LicenseItem, b: LicenseItem) =>
  b.createdAt.localeCompare(a.createdAt) || b.licenseId.localeCompare(a.licenseId);

async function byKey(deps: LicenseDeps, tenantId: string, needle: string): Promise<LicenseItem[]> {
  const { data } = await deps.data.entities.license.get({ licenseKey: needle }).go();
  return data && data.tenantId === tenantId ? [data] : [];
}

async function byEmailPrefix(deps: LicenseDeps, tenantId: string, needle: string): Promise<LicenseItem[]> {
  const { data } = await deps.data.entities.license.query
    .byEmail({ tenantId })
    .begins({ customerEmail: normalizeEmail(needle) })
    .go({ count: SEARCH_MATCH_LIMIT, pages: 'all' });
  return data;
}

/**
 * A search shaped like a generated key is one key lookup. Anything else is an e-mail prefix on the byEmail index,
 * and, when it could be a key kept by an import (any shape: `0f3a…`, `XXXX-XXXX-…`), also that key's lookup, read
 * together and joined.
 */
async function search(deps: LicenseDeps, tenantId: string, needle: string, options: LicenseListOptions): Promise<Page<License>> {
  let matches: LicenseItem[];
  if (hasGeneratedKeyShape(needle)) {
    matches = await byKey(deps, tenantId, needle);
  } else {
    const [keyed, emailed] = await Promise.all([couldBeLicenseKey(needle) ? byKey(deps, tenantId, needle) : [], byEmailPrefix(deps, tenantId, needle)]);
    matches = [...keyed, ...emailed.filter((item) => !keyed.some((key) => key.licenseId === item.licenseId))];
  }
  const now = deps.clock.now();
  const found = matches.filter((item) => matchesFilters(item, options, now)).sort(newestFirst);
  const page = paginateInMemory(found, options.page, options.perPage);
  return { ...page, items: await withProducts(deps, page.items) };
}

export async function listLicenses(deps: LicenseDeps, tenantId: string, options: LicenseListOptions): Promise<Page<License>> {
  const needle = options.search?.trim();
  // The status index must agree with the status licenses read: what is due of this tenant's is moved first.
  if (options.status && !needle) await settleTenantExpiries(deps, tenantId);
  return needle ? search(deps, tenantId, needle, options) : listByIndex(deps, tenantId, options);
}
