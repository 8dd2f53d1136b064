import { ConflictError, NotFoundError } from '../errors.js';
import { failedConditions } from '../data/conditions.js';
import type { PRODUCT_STATUSES, PRODUCT_TYPES } from '../data/entities/product.js';
import { newId, randomBase32 } from '../ids.js';
import { paginateInMemory, type Page } from '../http/schemas.js';
import type { Deps } from '../runtime.js';
import { forgetCachedProduct } from './cache-invalidation.js';
import { defaultLicensePrefix, slugCandidates, slugify } from './slugs.js';

type ProductDeps = Pick<Deps, 'data' | 'clock'>;
type ProductType = (typeof PRODUCT_TYPES)[number];
type ProductStatus = (typeof PRODUCT_STATUSES)[number];

/** Optional text fields: `null` in an update clears them. */
const OPTIONAL_TEXT = [
  'description', 'logoUrl', 'bannerUrl', 'readmeUrl', 'homepage', 'icon', 'color', 'tested', 'requires', 'requiresPhp',
] as const;
type OptionalText = (typeof OPTIONAL_TEXT)[number];

export type ProductInput = {
  name: string;
  productType: ProductType;
  slug?: string;
  status?: ProductStatus;
  isPremium?: boolean;
  requiresLicense?: boolean;
  managesReleases?: boolean;
  licensePrefix?: string;
} & { [K in OptionalText]?: string | null };

export type ProductChanges = Partial<ProductInput>;

type ProductItem = Awaited<ReturnType<typeof loadProduct>>;

export function toProduct(item: ProductItem) {
  return {
    id: item.productId,
    name: item.name,
    slug: item.slug,
    productType: item.productType,
    status: item.status,
    isPremium: item.isPremium,
    requiresLicense: item.requiresLicense,
    managesReleases: item.managesReleases,
    licensePrefix: item.licensePrefix,
    ...Object.fromEntries(OPTIONAL_TEXT.map((field) => [field, item[field] ?? null])),
    public_key: item.publicKey,
    latestVersion: item.latestVersion ?? null,
    plansCount: item.plansCount ?? 0,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
    deletedAt: item.deletedAt ?? null,
  };
}
export type Product = ReturnType<typeof toProduct>;

const PRODUCT_NOT_FOUND = 'Product not found';
const SLUG_TAKEN = 'Slug is already taken';

const withoutNulls = <T extends object>(fields: T) =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== null && v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], null>;
  };

/** A tenant's product, deleted or not; another tenant's id is not found. */
async function loadProduct(deps: ProductDeps, tenantId: string, productId: string) {
  const { data } = await deps.data.entities.product.get({ productId }).go({ consistent: true });
  if (!data || data.tenantId !== tenantId) throw new NotFoundError(PRODUCT_NOT_FOUND);
  return data;
}

/** A tenant's product that has not been deleted: what every write and child resource requires. */
export async function loadLiveProduct(deps: ProductDeps, tenantId: string, productId: string) {
  const product = await loadProduct(deps, tenantId, productId);
  if (product.deletedAt) throw new NotFoundError(PRODUCT_NOT_FOUND);
  return product;
}

export async function getProduct(deps: ProductDeps, tenantId: string, productId: string): Promise<Product> {
  return toProduct(await loadProduct(deps, tenantId, productId));
}

/**
 * Creates a product with its slug and public key claimed in one transaction: a taken slug that was
 * asked for is 409; a generated one moves on to the next numbered candidate.
 */
export async function createProduct(deps: ProductDeps, tenantId: string, input: ProductInput): Promise<Product> {
  const now = deps.clock.now().toISOString();
  const productId = newId('prd');
  const publicKey = `pk_${randomBase32(20)}`;
  const candidates = input.slug ? [input.slug] : slugCandidates(slugify(input.name));
  for (const slug of candidates) {
    const item = {
      ...withoutNulls(input),
      productId,
      tenantId,
      slug,
      status: input.status ?? 'active',
      isPremium: input.isPremium ?? false,
      requiresLicense: input.requiresLicense ?? true,
      managesReleases: input.managesReleases ?? true,
      licensePrefix: input.licensePrefix ?? defaultLicensePrefix(slug),
      publicKey,
      plansCount: 0,
      createdAt: now,
      updatedAt: now,
    };
    const outcome = await deps.data.transaction
      .write(({ productSlug, productPublicKey, product }) => [
        productSlug.create({ slug, productId, tenantId }).commit(),
        productPublicKey.create({ publicKey, productId, tenantId }).commit(),
        product.create(item).commit(),
      ])
      .go();
    if (!outcome.canceled) return toProduct(item as ProductItem);
    if (!failedConditions(outcome).includes(0)) throw new Error('Product creation failed');
    if (input.slug) throw new ConflictError(SLUG_TAKEN);
  }
  throw new ConflictError(SLUG_TAKEN);
}

export async function listProducts(
  deps: ProductDeps,
  tenantId: string,
  options: { page: number; perPage: number; search?: string; status?: ProductStatus },
): Promise<Page<Product>> {
  // A tenant has few products: one query of its products, filtered here (search is a substring match).
  const { data } = await deps.data.entities.product.query.byTenant({ tenantId }).go({ pages: 'all', order: 'desc' });
  const needle = options.search?.trim().toLowerCase();
  const matching = data.filter(
    (p) =>
      !p.deletedAt &&
      (!options.status || p.status === options.status) &&
      (!needle || p.name.toLowerCase().includes(needle) || p.slug.includes(needle)),
  );
  return paginateInMemory(matching.map(toProduct), options.page, options.perPage);
}

export async function updateProduct(
  deps: ProductDeps,
  tenantId: string,
  productId: string,
  changes: ProductChanges,
): Promise<Product> {
  const current = await loadLiveProduct(deps, tenantId, productId);
  const cleared = OPTIONAL_TEXT.filter((field) => changes[field] === null);
  const set = { ...withoutNulls(changes), updatedAt: deps.clock.now().toISOString() };
  // The product is written only if nobody changed its slug or deleted it since it was read.
  if (changes.slug === undefined || changes.slug === current.slug) {
    const { data } = await deps.data.entities.product
      .patch({ productId })
      .set(set)
      .remove(cleared)
      .where(({ slug, deletedAt }, { eq, notExists }) => `${eq(slug, current.slug)} AND ${notExists(deletedAt)}`)
      .go({ response: 'all_new' });
    forgetCachedProduct(productId);
    return toProduct(data as ProductItem);
  }
  const newSlug = changes.slug;
  const outcome = await deps.data.transaction
    .write(({ productSlug, product }) => [
      productSlug.create({ slug: newSlug, productId, tenantId }).commit(),
      productSlug
        .delete({ slug: current.slug })
        .where(({ productId: owner }, { eq }) => eq(owner, productId))
        .commit(),
      product.patch({ productId }).set(set).remove(cleared).where(({ slug, deletedAt }, { eq, notExists }) => `${eq(slug, current.slug)} AND ${notExists(deletedAt)}`).commit(),
    ])
    .go();
  if (failedConditions(outcome).includes(0)) throw new ConflictError(SLUG_TAKEN);
  if (outcome.canceled) throw new ConflictError('Product was changed concurrently; retry');
  forgetCachedProduct(productId);
  return getProduct(deps, tenantId, productId);
}

/** Soft delete: the product leaves lists and public surfaces; GET still answers it with `deletedAt`. */
export async function deleteProduct(deps: ProductDeps, tenantId: string, productId: string): Promise<void> {
  await loadLiveProduct(deps, tenantId, productId);
  const now = deps.clock.now().toISOString();
  await deps.data.entities.product
    .patch({ productId })
    .set({ deletedAt: now, updatedAt: now })
    .where(({ deletedAt }, { notExists }) => notExists(deletedAt))
    .go();
  forgetCachedProduct(productId);
}

/** Replaces the public key; the old one stops identifying the product at once. */
export async function regeneratePublicKey(deps: ProductDeps, tenantId: string, productId: string): Promise<Product> {
  const current = await loadLiveProduct(deps, tenantId, productId);
  const publicKey = `pk_${randomBase32(20)}`;
  const outcome = await deps.data.transaction
    .write(({ productPublicKey, product }) => [
      productPublicKey.create({ publicKey, productId, tenantId }).commit(),
      productPublicKey.delete({ publicKey: current.publicKey }).commit(),
      product
        .patch({ productId })
        .set({ publicKey, updatedAt: deps.clock.now().toISOString() })
        .where(({ publicKey: key }, { eq }) => eq(key, current.publicKey))
        .commit(),
    ])
    .go();
  if (outcome.canceled) throw new ConflictError('Product was changed concurrently; retry');
  return getProduct(deps, tenantId, productId);
}
