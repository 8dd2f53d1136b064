import { type ProductMilestoneName, writeItem } from '../../platform/data/index.js';
import type { Deps } from '../../platform/index.js';
import { logger } from '../../platform/observability/index.js';

export type ProductMilestone = { productId: string; tenantId: string; milestone: ProductMilestoneName; at: string; site?: string; licenseId?: string };

/**
 * Milestones this container has written or found written: each is tried once per container, so an activation or a
 * checkout pays the extra write only until its product's first one is on record.
 */
const onRecord = new Set<string>();

/**
 * Records a product's milestone unless it is on record already (created only if absent: the first one stays).
 * Called after the change it marks has committed: a failure is logged, never the caller's failure.
 */
export async function reachMilestone(deps: Pick<Deps, 'data'>, milestone: ProductMilestone): Promise<void> {
  const key = `${milestone.productId}#${milestone.milestone}`;
  if (onRecord.has(key)) return;
  try {
    await writeItem(() => deps.data.entities.productMilestone.create(milestone).go());
    onRecord.add(key);
  } catch (error) {
    logger.warn('Milestone not recorded', { error, productId: milestone.productId, milestone: milestone.milestone });
  }
}

/** The milestones on record of a tenant's products (a batch of key lookups; another tenant's product reads as none). */
export async function milestonesOf(deps: Pick<Deps, 'data'>, tenantId: string, productIds: string[], milestone: ProductMilestoneName): Promise<ProductMilestone[]> {
  if (productIds.length === 0) return [];
  const { data } = await deps.data.entities.productMilestone.get(productIds.map((productId) => ({ productId, milestone }))).go();
  return data.filter((item) => item.tenantId === tenantId);
}
