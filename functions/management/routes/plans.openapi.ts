import * as z from 'zod/mini';
import { CHANNELS, type Plan as PlanView } from '../../../shared/catalog/index.js';
import { BILLING_CYCLES } from '../../../shared/platform/data/index.js';
import { assertDescribes, defineOperations, described, examplePlan, idOf, named, timestamp } from '../../../shared/platform/openapi/index.js';

export const Plan = named(
  'Plan',
  z.object({
    id: idOf('pln'),
    productId: idOf('prd'),
    name: z.string(),
    slug: z.string(),
    billingCycle: z.enum(BILLING_CYCLES),
    price: z.number(),
    currency: z.string(),
    siteLimit: z.number(),
    shortDescription: z.nullable(z.string()),
    isActive: z.boolean(),
    isPublic: z.boolean(),
    channel: z.enum(CHANNELS),
    trialDays: described(z.number(), 'Days of trial (0–90): a checkout starts the subscription with this trial, and `POST /public/v1/trials` issues a no-card trial.'),
    allowPromotionCodes: described(z.boolean(), "Buyers may type a promotion code at Stripe's checkout (`allow_promotion_codes`)."),
    features: described(
      z.array(z.string()),
      "Keys of the product's features the plan grants: licenses issued from it (checkout, trials, `POST /api/licenses` with `planId`) or moved to it (a plan change) get them. A feature the product no longer defines is left out.",
    ),
    createdAt: timestamp,
    updatedAt: timestamp,
  }),
  'A pricing plan of a product: `price` in major units of `currency` (upper-case); licenses issued from it get `siteLimit` seats.',
);
assertDescribes<typeof Plan, PlanView>(true);

const productGone = ['Product not found'];

export const planOperations = defineOperations({
  'GET /api/products/{id}/plans': {
    summary: "List a product's plans",
    description: 'Every plan, in creation order (not paginated).',
    responses: { 200: { description: 'The plans', body: named('PlanList', z.object({ items: z.array(Plan) })), examples: { plans: { items: [examplePlan] } } } },
  },
  'POST /api/products/{id}/plans': {
    summary: 'Create a plan',
    description:
      'Defaults: `siteLimit: 1`, `isActive: true`, `isPublic: true`, `channel: "stable"`, `trialDays: 0`, `allowPromotionCodes: false`; a slug is generated from `name` when not given. ' +
      'Slugs are unique within the product. `channel` is the release channel of the licenses issued from the plan.',
    requestBody: { examples: { yearly: { name: 'Pro', billingCycle: 'yearly', price: 49, currency: 'usd', siteLimit: 3, shortDescription: 'Three sites, a year of updates', features: ['reports'] } } },
    responses: { 201: { description: 'The plan', body: Plan, examples: { created: examplePlan } } },
    errors: { 400: ['price: must have at most two decimal places', 'currency: must be a three-letter currency code', 'Unknown feature: exports'], 409: ['Slug is already taken'] },
  },
  'GET /api/products/{id}/plans/{planId}': {
    summary: 'Get a plan',
    responses: { 200: { description: 'The plan', body: Plan, examples: { plan: examplePlan } } },
    errors: { 404: productGone },
  },
  'PUT /api/products/{id}/plans/{planId}': {
    summary: 'Update a plan',
    description: 'Partial; `null` clears `shortDescription`. Licenses already issued keep their seats, expiry, channel and features.',
    requestBody: { examples: { reprice: { price: 59, isPublic: false }, features: { features: ['reports', 'white-label'] } } },
    responses: { 200: { description: 'The plan', body: Plan, examples: { updated: { ...examplePlan, price: 59, isPublic: false } } } },
    errors: { 400: ['Unknown feature: exports'], 404: productGone, 409: ['Slug is already taken', 'Plan was changed concurrently; retry'] },
  },
  'DELETE /api/products/{id}/plans/{planId}': {
    summary: 'Delete a plan',
    description: 'Licenses issued from it keep their seats and expiry.',
    responses: { 204: { description: 'Deleted' } },
    errors: { 404: productGone },
  },
});
