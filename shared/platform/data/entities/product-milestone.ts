import { Entity } from 'electrodb';
import { model, productRecordsKey } from '../keys.js';

export const PRODUCT_MILESTONES = ['firstActivation', 'firstCheckout'] as const;
export type ProductMilestoneName = (typeof PRODUCT_MILESTONES)[number];

/**
 * The first time something happened to a product, for the dashboard's first steps (DECISIONS §22): its first
 * activation (`site`: the domain, or the machine's name) and the first checkout a buyer opened. Created only if absent,
 * in the product's records partition, which the edge and public functions may write. Kept.
 */
export const productMilestoneEntity = () =>
  new Entity({
    model: model('productMilestone'),
    attributes: {
      productId: { type: 'string', required: true },
      milestone: { type: PRODUCT_MILESTONES, required: true },
      tenantId: { type: 'string', required: true },
      at: { type: 'string', required: true },
      site: { type: 'string' },
      licenseId: { type: 'string' },
    },
    indexes: { byProduct: productRecordsKey(['milestone']) },
  });
