import { ConflictError, type Deps, newId, NotFoundError } from '../../platform/index.js';
import { type BILLING_CYCLES, type EntityItem, transact } from '../../platform/data/index.js';
import { loadLiveProduct } from '../products/products.js';
import { slugCandidates, slugify } from '../products/slugs.js';
import { DEFAULT_CHANNEL, type Channel } from '../releases/channels.js';
import { checkFeatureKeys, type Feature, grantedFeatures } from '../products/features.js';

type PlanDeps = Pick<Deps, 'data' | 'clock'>;
type BillingCycle = (typeof BILLING_CYCLES)[number];

export type PlanInput = {
  name: string;
  slug?: string;
  billingCycle: BillingCycle;
  price: number;
  /** Upper-case ISO 4217 code. */
  currency: string;
  siteLimit?: number;
  shortDescription?: string | null;
  isActive?: boolean;
  isPublic?: boolean;
  /** The release channel of the licenses issued from the plan. */
  channel?: Channel;
  /** Days of trial (0–90) before the first charge (DECISIONS §15). */
  trialDays?: number;
  /** Buyers may type a promotion code at Stripe's checkout. */
  allowPromotionCodes?: boolean;
  /** Keys of the product's features the plan grants (DECISIONS §23). */
  features?: string[];
};
export type PlanChanges = Partial<PlanInput>;

type PlanItem = EntityItem<'plan'>;

/** `product`: its features now, which a plan's answer is limited to (shared/catalog/products/features.ts). */
export function toPlan(item: PlanItem, product: { features?: Feature[] }) {
  return {
    id: item.planId,
    productId: item.productId,
    name: item.name,
    slug: item.slug,
    billingCycle: item.billingCycle,
    price: item.price,
    currency: item.currency,
    siteLimit: item.siteLimit,
    shortDescription: item.shortDescription ?? null,
    isActive: item.isActive,
    isPublic: item.isPublic,
    channel: item.channel ?? DEFAULT_CHANNEL,
    trialDays: item.trialDays ?? 0,
    allowPromotionCodes: item.allowPromotionCodes ?? false,
    features: grantedFeatures(product, item.features),
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}
export type Plan = ReturnType<typeof toPlan>;

const PLAN_NOT_FOUND = 'Plan not found';
const PRODUCT_NOT_FOUND = 'Product not found';
const SLUG_TAKEN = 'Slug is already taken';
const CHANGED_CONCURRENTLY = 'Plan was changed concurrently; retry';

/** A plan of this tenant's product; another tenant's or another product's plan is not found. */
async function loadPlan(deps: PlanDeps, tenantId: string, productId: string, planId: string): Promise<PlanItem> {
  const { data } = await deps.data.entities.plan.get({ planId }).go({ consistent: true });
  if (!data || data.tenantId !== tenantId || data.productId !== productId) throw new NotFoundError(PLAN_NOT_FOUND);
  return data;
}

/** A product's plans in the order they were created (the order a pricing table shows them). */
export async function listPlans(deps: PlanDeps, tenantId: string, productId: string): Promise<Plan[]> {
  const product = await loadLiveProduct(deps, tenantId, productId);
  const { data } = await deps.data.entities.plan.query.byProduct({ productId }).go({ pages: 'all' });
  return data.map((item) => toPlan(item, product));
}

export async function getPlan(deps: PlanDeps, tenantId: string, productId: string, planId: string): Promise<Plan> {
  const product = await loadLiveProduct(deps, tenantId, productId);
  return toPlan(await loadPlan(deps, tenantId, productId, planId), product);
}

/**
 * Creates a plan, claims its slug within the product, and counts it on the product, in one transaction
 * that also requires the product to be live. A requested slug that is taken is 409; a generated one moves
 * on to the next numbered candidate.
 */
export async function createPlan(deps: PlanDeps, tenantId: string, productId: string, input: PlanInput): Promise<Plan> {
  const product = await loadLiveProduct(deps, tenantId, productId);
  const features = checkFeatureKeys(product, input.features ?? []);
  const now = deps.clock.now().toISOString();
  const planId = newId('pln');
  const candidates = input.slug ? [input.slug] : slugCandidates(slugify(input.name));
  for (const slug of candidates) {
    const item: PlanItem = {
      planId,
      tenantId,
      productId,
      name: input.name,
      slug,
      billingCycle: input.billingCycle,
      price: input.price,
      currency: input.currency,
      siteLimit: input.siteLimit ?? 1,
      ...(input.shortDescription != null && { shortDescription: input.shortDescription }),
      isActive: input.isActive ?? true,
      isPublic: input.isPublic ?? true,
      channel: input.channel ?? DEFAULT_CHANNEL,
      trialDays: input.trialDays ?? 0,
      allowPromotionCodes: input.allowPromotionCodes ?? false,
      ...(features.length > 0 && { features }),
      createdAt: now,
      updatedAt: now,
    };
    const outcome = await transact(deps.data, (tx) => ({
      slug: tx.planSlug.create({ productId, slug, planId }).commit(),
      plan: tx.plan.create(item).commit(),
      product: tx.product
        .patch({ productId })
        .add({ plansCount: 1 })
        .where(({ tenantId: owner, deletedAt }, { eq, notExists }) => `${eq(owner, tenantId)} AND ${notExists(deletedAt)}`)
        .commit(),
    }));
    if (outcome.committed) return toPlan(item, product);
    if (outcome.refused('product')) throw new NotFoundError(PRODUCT_NOT_FOUND);
    if (!outcome.refused('slug')) throw outcome.unexpected();
    if (input.slug) throw new ConflictError(SLUG_TAKEN);
  }
  throw new ConflictError(SLUG_TAKEN);
}

/** Partial update; a new slug is claimed and the old one released in the same transaction as the plan. */
export async function updatePlan(
  deps: PlanDeps,
  tenantId: string,
  productId: string,
  planId: string,
  changes: PlanChanges,
): Promise<Plan> {
  const product = await loadLiveProduct(deps, tenantId, productId);
  const current = await loadPlan(deps, tenantId, productId, planId);
  const { shortDescription, features, ...rest } = changes;
  const set = {
    ...Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)),
    ...(features !== undefined && { features: checkFeatureKeys(product, features) }),
    ...(shortDescription != null && { shortDescription }),
    updatedAt: deps.clock.now().toISOString(),
  } as Partial<PlanItem>;
  const cleared = shortDescription === null ? (['shortDescription'] as const) : [];
  const newSlug = changes.slug !== undefined && changes.slug !== current.slug ? changes.slug : undefined;
  const outcome = await transact(deps.data, (tx) => ({
    product: tx.product
      .check({ productId })
      .where(({ deletedAt }, { notExists }) => notExists(deletedAt))
      .commit(),
    // The plan is written only if its slug is still the one read, so the slug items stay in step.
    plan: tx.plan
      .patch({ planId })
      .set(set)
      .remove([...cleared])
      .where(({ slug }, { eq }) => eq(slug, current.slug))
      .commit(),
    newSlug: newSlug !== undefined && tx.planSlug.create({ productId, slug: newSlug, planId }).commit(),
    oldSlug:
      newSlug !== undefined &&
      tx.planSlug
        .delete({ productId, slug: current.slug })
        .where(({ planId: owner }, { eq }) => eq(owner, planId))
        .commit(),
  }));
  if (!outcome.committed) {
    if (outcome.refused('product')) throw new NotFoundError(PRODUCT_NOT_FOUND);
    if (outcome.refused('newSlug')) throw new ConflictError(SLUG_TAKEN);
    // The plan may have been deleted meanwhile (404), or changed its slug (retryable conflict).
    await loadPlan(deps, tenantId, productId, planId);
    throw new ConflictError(CHANGED_CONCURRENTLY);
  }
  const updated = { ...current, ...set } as PlanItem;
  if (shortDescription === null) delete updated.shortDescription;
  return toPlan(updated, product);
}

/** Deletes the plan and its slug and uncounts it from the product, together. Issued licenses keep their seats. */
export async function deletePlan(deps: PlanDeps, tenantId: string, productId: string, planId: string): Promise<void> {
  await loadLiveProduct(deps, tenantId, productId);
  const current = await loadPlan(deps, tenantId, productId, planId);
  const outcome = await transact(deps.data, (tx) => ({
    product: tx.product
      .patch({ productId })
      .add({ plansCount: -1 })
      .where(({ deletedAt }, { notExists }) => notExists(deletedAt))
      .commit(),
    plan: tx.plan
      .delete({ planId })
      .where(({ slug }, { eq }) => eq(slug, current.slug))
      .commit(),
    slug: tx.planSlug
      .delete({ productId, slug: current.slug })
      .where(({ planId: owner }, { eq }) => eq(owner, planId))
      .commit(),
  }));
  if (!outcome.committed) {
    if (outcome.refused('product')) throw new NotFoundError(PRODUCT_NOT_FOUND);
    await loadPlan(deps, tenantId, productId, planId);
    throw new ConflictError(CHANGED_CONCURRENTLY);
  }
}
