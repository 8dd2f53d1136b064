import { type ConditionOperations, type PRODUCT_STATUSES, type PRODUCT_TYPES, transact, type UPDATES_AFTER_EXPIRY } from '../../platform/data/index.js';

type UpdatesAfterExpiry = (typeof UPDATES_AFTER_EXPIRY)[number];
import { ConflictError, type Deps, newId, newPublicKey, NotFoundError, type Page, paginateInMemory, withoutNulls } from '../../platform/index.js';
import type { SecretBox } from '../../platform/secrets/index.js';
import {
  DEFAULT_GRACE_DAYS,
  DEFAULT_PLAN_CHANGE_PRORATION,
  DEFAULT_RENEWAL_REMINDER_DAYS,
  DEFAULT_STAGING_ACTIVATION_LIMIT,
  OFFLINE_VALIDITY_DAYS,
  type PlanChangeProration,
} from './product-defaults.js';
import { ensureAccountSettings } from '../composer/vendors.js';
import { checkedIncludes } from './bundles.js';
import type { Feature } from './features.js';
import { newSigningKey, publicSigningKeys, rotatedKeys } from './signing-keys.js';
import { defaultLicensePrefix, slugCandidates, slugify } from './slugs.js';

type ProductDeps = Pick<Deps, 'data' | 'clock'>;
/** Writes that make a signing key seal its private key. */
type SigningDeps = ProductDeps & { secrets: SecretBox };
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
  /** null: the default patterns; `[]`: no staging sites. */
  stagingPatterns?: string[] | null;
  /** null: the default limit. */
  stagingActivationLimit?: number | null;
  /** Days an offline license file stays valid (1–365; default 30). */
  offlineValidityDays?: number;
  /** Days before expiry a license that will not renew is reminded (each 1–60; default [7]). */
  renewalReminderDays?: number[];
  /** Days a license stays valid after a failed renewal payment's period end (0–30; default 7). */
  graceDays?: number;
  /** Normalized origins checkout may return buyers to; `[]`: any. */
  returnOrigins?: string[];
  /** What an expired license may still update to (DECISIONS §14). */
  updatesAfterExpiry?: UpdatesAfterExpiry;
  /** How a subscription's plan change is timed and prorated (DECISIONS §15). */
  planChangeProration?: PlanChangeProration;
  /** What plans may switch on (DECISIONS §23); keys unique. */
  features?: Feature[];
  /** A bundle's included products (DECISIONS §23). */
  includes?: string[];
  /** The dashboard and license e-mails show how to install it with Composer (DECISIONS §24). */
  composerEnabled?: boolean;
} & { [K in OptionalText]?: string | null };

/** Fields that `null` clears in an update (back to their defaults). */
const CLEARABLE = [...OPTIONAL_TEXT, 'stagingPatterns', 'stagingActivationLimit'] as const;

export type ProductChanges = Partial<ProductInput>;

type ProductItem = Awaited<ReturnType<typeof loadProduct>>;
type ProductAttributes = Record<'slug' | 'deletedAt', unknown>;

/** `now` decides which rotated-out signing keys are still shown (those in their grace period). */
export function toProduct(item: ProductItem, now: Date = new Date()) {
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
    stagingPatterns: item.stagingPatterns ?? null,
    stagingActivationLimit: item.stagingActivationLimit ?? DEFAULT_STAGING_ACTIVATION_LIMIT,
    returnOrigins: item.returnOrigins ?? [],
    public_key: item.publicKey,
    latestVersion: item.latestVersion ?? null,
    plansCount: item.plansCount ?? 0,
    offlineValidityDays: item.offlineValidityDays ?? OFFLINE_VALIDITY_DAYS,
    updatesAfterExpiry: item.updatesAfterExpiry ?? 'none',
    renewalReminderDays: item.renewalReminderDays ?? DEFAULT_RENEWAL_REMINDER_DAYS,
    graceDays: item.graceDays ?? DEFAULT_GRACE_DAYS,
    planChangeProration: item.planChangeProration ?? DEFAULT_PLAN_CHANGE_PRORATION,
    features: item.features ?? [],
    includes: item.includes ?? [],
    composerEnabled: item.composerEnabled ?? false,
    signingKeys: publicSigningKeys(item, now),
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
    deletedAt: item.deletedAt ?? null,
  };
}
export type Product = ReturnType<typeof toProduct>;

const PRODUCT_NOT_FOUND = 'Product not found';
const SLUG_TAKEN = 'Slug is already taken';
const CHANGED_CONCURRENTLY = 'Product was changed concurrently; retry';
/** Rounds of "changed between our read and our write" before answering 409. */
const WRITE_ROUNDS = 5;

/** A tenant's product, deleted or not; another tenant's id is not found. */
export async function loadProduct(deps: ProductDeps, tenantId: string, productId: string) {
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
  return toProduct(await loadProduct(deps, tenantId, productId), deps.clock.now());
}

/**
 * Creates a product with its slug and public key claimed in one transaction: a taken slug that was
 * asked for is 409; a generated one moves on to the next numbered candidate. Its first signing key is made
 * with it (one KMS GenerateDataKey in AWS).
 */
export async function createProduct(deps: SigningDeps, tenantId: string, input: ProductInput): Promise<Product> {
  // Its packages are named `<vendor>/<slug>` in the Composer repository, so the account has a vendor before it has a product.
  await ensureAccountSettings(deps, tenantId);
  const clockNow = deps.clock.now();
  const now = clockNow.toISOString();
  const productId = newId('prd');
  const includes = await checkedIncludes(deps, { tenantId, productId, productType: input.productType }, input.includes);
  const publicKey = newPublicKey();
  const signingKey = await newSigningKey(deps.secrets, { tenantId, productId }, clockNow);
  const candidates = input.slug ? [input.slug] : slugCandidates(slugify(input.name));
  for (const slug of candidates) {
    const item = {
      ...withoutNulls(input),
      includes,
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
      // No release yet: each published one claims its version as it is published.
      versionsClaimed: true,
      signingKeys: [signingKey],
      signingKeyId: signingKey.keyId,
      createdAt: now,
      updatedAt: now,
    };
    const outcome = await transact(deps.data, (tx) => ({
      slug: tx.productSlug.create({ slug, productId, tenantId }).commit(),
      publicKey: tx.productPublicKey.create({ publicKey, productId, tenantId }).commit(),
      product: tx.product.create(item).commit(),
    }));
    if (outcome.committed) return toProduct(item as ProductItem, clockNow);
    if (!outcome.refused('slug')) throw outcome.unexpected();
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
  const now = deps.clock.now();
  return paginateInMemory(
    matching.map((item) => toProduct(item, now)),
    options.page,
    options.perPage,
  );
}

export async function updateProduct(
  deps: ProductDeps,
  tenantId: string,
  productId: string,
  changes: ProductChanges,
): Promise<Product> {
  const cleared = CLEARABLE.filter((field) => changes[field] === null);
  // An account from before Composer vendors gets its vendor when it turns Composer on (DECISIONS §24).
  if (changes.composerEnabled) await ensureAccountSettings(deps, tenantId);
  for (let round = 0; round < WRITE_ROUNDS; round++) {
    const current = await loadLiveProduct(deps, tenantId, productId);
    // A bundle's includes are checked whenever its type or list changes; a product that stops being a bundle drops them.
    const productType = changes.productType ?? current.productType;
    const includes =
      (changes.productType !== undefined && changes.productType !== current.productType) || changes.includes !== undefined
        ? await checkedIncludes(deps, { tenantId, productId, productType }, changes.includes ?? (changes.productType === 'bundle' ? current.includes : undefined))
        : current.includes;
    const { includes: _given, ...rest } = changes;
    const set = { ...withoutNulls(rest), ...(includes && { includes }), updatedAt: deps.clock.now().toISOString() };
    const dropped = includes === undefined && current.includes ? (['includes'] as const) : [];
    const newSlug = changes.slug !== undefined && changes.slug !== current.slug ? changes.slug : undefined;
    // The product is written only if nobody changed its slug or deleted it since it was read.
    const unchanged = ({ slug, deletedAt }: ProductAttributes, { eq, notExists }: ConditionOperations) =>
      `${eq(slug, current.slug)} AND ${notExists(deletedAt)}`;
    if (!newSlug) {
      // A transaction (its audit entry rides with it), then the product as written.
      const outcome = await transact(deps.data, (tx) => ({ product: tx.product.patch({ productId }).set(set).remove([...cleared, ...dropped]).where(unchanged).commit() }));
      if (outcome.committed) return toProduct(await loadProduct(deps, tenantId, productId), deps.clock.now());
      continue;
    }
    const outcome = await transact(deps.data, (tx) => ({
      newSlug: tx.productSlug.create({ slug: newSlug, productId, tenantId }).commit(),
      oldSlug: tx.productSlug
        .delete({ slug: current.slug })
        .where(({ productId: owner }, { eq }) => eq(owner, productId))
        .commit(),
      product: tx.product.patch({ productId }).set(set).remove([...cleared, ...dropped]).where(unchanged).commit(),
    }));
    if (outcome.committed) return getProduct(deps, tenantId, productId);
    if (outcome.refused('newSlug')) throw new ConflictError(SLUG_TAKEN);
  }
  throw new ConflictError(CHANGED_CONCURRENTLY);
}

/**
 * Soft delete: the product leaves lists; GET still answers it with `deletedAt`. Its public key mapping
 * goes in the same transaction, so the public surface, which reads that mapping on every call, refuses
 * the product at once from every container. Its slug stays taken.
 */
export async function deleteProduct(deps: ProductDeps, tenantId: string, productId: string): Promise<void> {
  for (let round = 0; round < WRITE_ROUNDS; round++) {
    const current = await loadLiveProduct(deps, tenantId, productId);
    const now = deps.clock.now().toISOString();
    const outcome = await transact(deps.data, (tx) => ({
      product: tx.product
        .patch({ productId })
        .set({ deletedAt: now, updatedAt: now })
        .where(({ deletedAt, publicKey }, { eq, notExists }) => `${notExists(deletedAt)} AND ${eq(publicKey, current.publicKey)}`)
        .commit(),
      publicKey: tx.productPublicKey
        .delete({ publicKey: current.publicKey })
        .where(({ productId: owner }, { eq }) => eq(owner, productId))
        .commit(),
    }));
    if (outcome.committed) return;
    // Deleted by someone else (the next read answers 404) or its key replaced meanwhile (try again).
  }
  throw new ConflictError(CHANGED_CONCURRENTLY);
}

/** Replaces the public key; the old one stops identifying the product at once. */
export async function regeneratePublicKey(deps: ProductDeps, tenantId: string, productId: string): Promise<Product> {
  for (let round = 0; round < WRITE_ROUNDS; round++) {
    const current = await loadLiveProduct(deps, tenantId, productId);
    const publicKey = newPublicKey();
    const outcome = await transact(deps.data, (tx) => ({
      newKey: tx.productPublicKey.create({ publicKey, productId, tenantId }).commit(),
      oldKey: tx.productPublicKey
        .delete({ publicKey: current.publicKey })
        .where(({ productId: owner }, { eq }) => eq(owner, productId))
        .commit(),
      product: tx.product
        .patch({ productId })
        .set({ publicKey, updatedAt: deps.clock.now().toISOString() })
        .where(({ publicKey: key, deletedAt }, { eq, notExists }) => `${eq(key, current.publicKey)} AND ${notExists(deletedAt)}`)
        .commit(),
    }));
    if (outcome.committed) return getProduct(deps, tenantId, productId);
    // A drawn key that is taken, a concurrent replacement or a delete: the next round reads again.
  }
  throw new ConflictError(CHANGED_CONCURRENTLY);
}

/**
 * A new current signing key: answers and offline files are signed with it from the moment each container's
 * product cache takes it in (at most 60 s); the key that signed until now stays valid for verifiers for
 * `SIGNING_KEY_GRACE_DAYS`, and keys past their grace are dropped. A product made before signing keys existed
 * gets its first key this way. The write holds only while the current key is still the one read.
 */
export async function rotateSigningKey(deps: SigningDeps, tenantId: string, productId: string): Promise<Product> {
  for (let round = 0; round < WRITE_ROUNDS; round++) {
    const current = await loadLiveProduct(deps, tenantId, productId);
    const now = deps.clock.now();
    const next = await newSigningKey(deps.secrets, { tenantId, productId }, now);
    const signingKeys = rotatedKeys(current, next, now);
    const outcome = await transact(deps.data, (tx) => ({
      product: tx.product
        .patch({ productId })
        .set({ signingKeys, signingKeyId: next.keyId, updatedAt: now.toISOString() })
        .where(({ signingKeyId, deletedAt }, { eq, notExists }) =>
          `${current.signingKeyId === undefined ? notExists(signingKeyId) : eq(signingKeyId, current.signingKeyId)} AND ${notExists(deletedAt)}`,
        )
        .commit(),
    }));
    if (outcome.committed) return toProduct(await loadProduct(deps, tenantId, productId), now);
    // Rotated or deleted meanwhile: the next round reads again (a deleted product is 404 there).
  }
  throw new ConflictError(CHANGED_CONCURRENTLY);
}
