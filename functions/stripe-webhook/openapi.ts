import * as z from 'zod/mini';
import type { Receipt } from '../../shared/billing/index.js';
import { assertDescribes, defineOperations, described, named } from '../../shared/platform/openapi/index.js';

const StripeReceipt = named(
  'StripeReceipt',
  z.object({ received: z.literal(true), outcome: z.enum(['processed', 'duplicate', 'ignored']) }),
  '`duplicate`: this event id was processed before; `ignored`: its type is not handled, or it names nothing of this vendor\'s.',
);
assertDescribes<typeof StripeReceipt, { received: true } & Receipt>(true);

/** The route reads the raw body (signed as sent); this is the part of a Stripe event it relies on. */
const stripeEvent = described(
  z.looseObject({ id: z.string(), type: z.string(), created: z.number(), data: z.looseObject({ object: z.looseObject({}) }) }),
  "A Stripe event, exactly as Stripe sends it (the signature covers the raw bytes).",
);

export const stripeWebhookOperations = defineOperations({
  'POST /v1/webhooks/stripe/{userId}': {
    summary: "Receive a vendor's Stripe events",
    description:
      "The `webhookUrl` of `GET /api/payment-provider`, registered in the vendor's Stripe account. Handles `checkout.session.completed` and " +
      '`checkout.session.async_payment_succeeded` (license issued and e-mailed, payment and subscription recorded), `invoice.paid` (renewal), ' +
      '`customer.subscription.updated` / `deleted` (state synced; on deletion the license expires at period end) and `charge.refunded` ' +
      '(license revoked, for one-time and subscription payments alike). The license is issued from the plan as checkout sold it ' +
      '(in the session\'s metadata), whatever became of the plan or product since. A paid checkout of this vendor\'s product that ' +
      'cannot be issued answers 500 (not marked processed, so Stripe retries) and is alarmed. Each event id is processed once; ' +
      'bodies over 512 KB are 413.',
    requestBody: {
      schema: stripeEvent,
      examples: { completed: { id: 'evt_1QxYz2AbCdEfGh', type: 'checkout.session.completed', created: 1768473000, data: { object: { id: 'cs_test_a1B2c3D4e5F6g7H8', object: 'checkout.session' } } } },
    },
    responses: { 200: { description: 'Received', body: StripeReceipt, examples: { processed: { received: true, outcome: 'processed' }, duplicate: { received: true, outcome: 'duplicate' } } } },
    errors: {
      400: ['Invalid Stripe signature'],
      404: ['Not found'],
      409: ['This event is being processed; retry later'],
      413: ['Request body too large'],
      500: ['License could not be issued for this purchase'],
      502: ['Payment provider unavailable'],
    },
  },
});
