import * as z from 'zod/mini';
import { BILLING_CYCLES } from '../../shared/platform/data/index.js';
import { LICENSE_MESSAGES as M } from '../../shared/licensing/index.js';
import { assertDescribes, defineOperations, EX, named } from '../../shared/platform/openapi/index.js';
import type { listPublicPlans } from '../../shared/billing/index.js';
import { RATE_LIMITS } from '../../shared/platform/rate-limits/index.js';

const PublicPlan = named(
  'PublicPlan',
  z.object({
    id: z.string().check(z.regex(/^plan_[a-z2-7]{24}$/)),
    name: z.string(),
    slug: z.string(),
    price: z.number(),
    currency: z.string(),
    billingCycle: z.enum(BILLING_CYCLES),
    siteLimit: z.number(),
    features: z.array(z.object({ key: z.string(), name: z.string() })),
    checkoutUrl: z.string(),
  }),
  'A plan on sale: `id` is the public plan id (`plan_` and the suffix of its `pln_` id); `checkoutUrl` starts its checkout; ' +
    "`features`: the product's features the plan grants (DECISIONS §23), in the plan's order, for a pricing table.",
);
assertDescribes<typeof PublicPlan, Awaited<ReturnType<typeof listPublicPlans>>[number]>(true);

const checkoutRedirect = {
  location: { description: "The hosted checkout page of the vendor's Stripe account", required: true },
  'cache-control': { description: '`no-store`', required: true },
};
const checkoutErrors = {
  400: ['Checkout is not available for this product', 'Invalid promotion code', 'email must be a valid e-mail address', 'return_url must be an http(s) URL', 'return_url is not allowed for this product'],
  404: [M.invalidPublicKey, 'Plan not found'],
  502: ['Payment provider unavailable'],
};
const checkoutDescription =
  "Opens a Stripe Checkout Session on the vendor's connected account (mode `subscription` for monthly and yearly plans, `payment` " +
  'for lifetime) and sends the buyer there. After payment the license is issued and e-mailed; with `return_url` the buyer comes back ' +
  'to it with `?<activate_param>=<license key>` (or `?<pending_param>=1` while the license is being issued). `return_url` must have one of ' +
  "the product's `returnOrigins` when it lists any (else 400 `return_url is not allowed for this product`). `promo` applies a coupon's " +
  'promotion code as the session\'s discount (unknown, inactive, expired or not for this plan: 400 `Invalid promotion code`); without it, a ' +
  "plan's `allowPromotionCodes` lets buyers type one at Stripe. A plan's `trialDays` start the subscription with that trial, and the " +
  "payment provider's `automaticTax` and `taxIdCollection` are passed to every session (DECISIONS §15). Unknown query parameters are ignored. " +
  'A refusal answers a request whose `Accept` names `text/html` (a buyer\'s browser) as a small HTML page in words with the same status (DECISIONS §22).';

export const checkoutOperations = defineOperations({
  'GET /public/v1/plans': {
    summary: "List a product's plans on sale",
    description: 'The plans that are both active and public, in creation order. Open to any origin.',
    responses: {
      200: {
        description: 'The plans',
        body: named('PublicPlanList', z.object({ plans: z.array(PublicPlan) })),
        examples: {
          plans: {
            plans: [
              {
                id: EX.publicPlanId,
                name: 'Pro',
                slug: 'pro',
                price: 49,
                currency: 'USD',
                billingCycle: 'yearly',
                siteLimit: 3,
                features: [{ key: 'reports', name: 'Reports' }],
                checkoutUrl: `${EX.baseUrl}/public/v1/checkout/${EX.publicPlanId}?public_key=${EX.publicKey}`,
              },
            ],
          },
        },
      },
    },
    errors: { 400: ['public_key is required'], 404: [M.invalidPublicKey] },
    rateLimits: [RATE_LIMITS.publicReads],
  },
  'GET /public/v1/checkout': {
    summary: 'Start a checkout (plan by slug)',
    description: checkoutDescription,
    queryExamples: { plan: 'pro', email: EX.email, return_url: 'https://acme.example.com/thanks' },
    responses: { 303: { description: 'To the hosted checkout', headers: checkoutRedirect } },
    errors: { ...checkoutErrors, 400: ['plan is required', ...checkoutErrors[400]] },
    rateLimits: [RATE_LIMITS.checkout],
  },
  'GET /public/v1/checkout/return': {
    summary: 'Where Stripe sends the buyer back',
    description:
      'The `success_url` of every checkout session. With `return_url`: 303 to it with the key (or the pending flag). Without: a small ' +
      'HTML page saying the key is on its way by e-mail.',
    security: [[]],
    queryExamples: { session_id: 'cs_test_a1B2c3D4e5F6g7H8' },
    responses: {
      200: { description: 'No return URL: a thank-you page', html: '<!doctype html><html lang="en">…<h1>Thank you for your purchase</h1>…</html>' },
      303: {
        description: "To the vendor's `return_url`",
        headers: { location: { description: '`return_url` with `<activate_param>=<license key>` or `<pending_param>=1` added', required: true } },
      },
    },
    errors: { 400: ['session_id is required'], 404: ['Checkout session not found'] },
  },
  'GET /public/v1/checkout/{planId}': {
    summary: 'Start a checkout (plan by id)',
    description: checkoutDescription,
    pathParameters: {
      planId: { schema: z.string().check(z.regex(/^(plan|pln)_[a-z2-7]{24}$/)), description: 'The public plan id (`plan_…`), or its `pln_…` id', example: EX.publicPlanId },
    },
    queryExamples: { email: EX.email },
    responses: { 303: { description: 'To the hosted checkout', headers: checkoutRedirect } },
    errors: checkoutErrors,
    rateLimits: [RATE_LIMITS.checkout],
  },
});
