import * as z from 'zod/mini';
import { assertDescribes, defineOperations, described, EX, named } from '../../../shared/platform/openapi/index.js';
import type { ProviderStatus as ProviderStatusView } from '../../../shared/billing/index.js';

const ProviderStatus = named(
  'PaymentProviderStatus',
  z.object({
    provider: z.nullable(z.literal('stripe')),
    connected: z.boolean(),
    webhookUrl: z.string(),
    automaticTax: described(z.boolean(), 'Every checkout session computes tax with Stripe Tax (`automatic_tax`); default false.'),
    taxIdCollection: described(z.boolean(), "Every checkout session collects the buyer's tax id (`tax_id_collection`); default false."),
  }),
  "Whether a Stripe account is connected, and the URL to register in Stripe for this vendor's events (shown before connecting too).",
);
assertDescribes<typeof ProviderStatus, ProviderStatusView>(true);

const webhookUrl = `${EX.baseUrl}/v1/webhooks/stripe/${EX.userId}`;

export const paymentProviderOperations = defineOperations({
  'GET /api/payment-provider': {
    summary: 'Payment provider status',
    responses: {
      200: {
        description: 'The connection',
        body: ProviderStatus,
        examples: { connected: { provider: 'stripe', connected: true, webhookUrl, automaticTax: false, taxIdCollection: false }, notConnected: { provider: null, connected: false, webhookUrl, automaticTax: false, taxIdCollection: false } },
      },
    },
  },
  'PUT /api/payment-provider': {
    summary: 'Connect a Stripe account',
    description: 'The key is checked with Stripe before anything is stored; both secrets are stored sealed and never returned. A second `PUT` replaces the connection.',
    requestBody: { examples: { stripe: { provider: 'stripe', secretKey: 'sk_test_51HxAbCdEfGhIjKlMn', webhookSecret: 'whsec_1234567890abcdef' } } },
    responses: { 200: { description: 'Connected', body: ProviderStatus, examples: { connected: { provider: 'stripe', connected: true, webhookUrl, automaticTax: false, taxIdCollection: false } } } },
    errors: {
      400: ['Stripe refused the secret key', 'secretKey: must be a Stripe secret key (sk_…) or restricted key (rk_…)', 'webhookSecret: must be a Stripe webhook signing secret (whsec_…)'],
      502: ['Payment provider unavailable'],
    },
  },
  'PATCH /api/payment-provider': {
    summary: 'Change the checkout tax settings',
    description: 'Partial: `automaticTax` and `taxIdCollection`, passed to every checkout session from then on (DECISIONS §15). The secrets stay.',
    requestBody: { examples: { tax: { automaticTax: true, taxIdCollection: true } } },
    responses: {
      200: { description: 'The connection', body: ProviderStatus, examples: { tax: { provider: 'stripe', connected: true, webhookUrl, automaticTax: true, taxIdCollection: true } } },
    },
    errors: { 400: ['No payment provider is connected'] },
  },
  'DELETE /api/payment-provider': {
    summary: 'Disconnect the payment provider',
    description: 'Checkout stops at once. Also 204 when nothing was connected.',
    responses: { 204: { description: 'Disconnected' } },
  },
});
