import { Entity } from 'electrodb';
import { BILLING_CYCLES, CHANNELS } from '../attribute-values.js';
import { globalIndex, model, primaryKey } from '../keys.js';

export const planEntity = () =>
  new Entity({
    model: model('plan'),
    attributes: {
      planId: { type: 'string', required: true },
      tenantId: { type: 'string', required: true },
      productId: { type: 'string', required: true },
      name: { type: 'string', required: true },
      slug: { type: 'string', required: true },
      billingCycle: { type: BILLING_CYCLES, required: true },
      price: { type: 'number', required: true },
      currency: { type: 'string', required: true },
      siteLimit: { type: 'number', required: true },
      shortDescription: { type: 'string' },
      isActive: { type: 'boolean', required: true },
      isPublic: { type: 'boolean', required: true },
      /** Release channel of the licenses issued from the plan; absent: `stable`. */
      channel: { type: CHANNELS },
      /** Days of trial before the first charge (DECISIONS §15); absent: 0. */
      trialDays: { type: 'number' },
      /** Lets buyers type a promotion code at Stripe's checkout; absent: false. */
      allowPromotionCodes: { type: 'boolean' },
      /** Keys of the product's features the plan grants (DECISIONS §23); absent: none. */
      features: { type: 'list', items: { type: 'string' } },
      createdAt: { type: 'string', required: true },
      updatedAt: { type: 'string', required: true },
    },
    indexes: {
      byId: primaryKey(['planId']),
      byProduct: globalIndex(1, ['productId'], ['createdAt', 'planId']),
    },
  });

/** Holds a plan slug within its product: plan slugs are unique per product. */
export const planSlugEntity = () =>
  new Entity({
    model: model('planSlug'),
    attributes: {
      productId: { type: 'string', required: true },
      slug: { type: 'string', required: true },
      planId: { type: 'string', required: true },
    },
    indexes: { bySlug: primaryKey(['productId', 'slug']) },
  });
