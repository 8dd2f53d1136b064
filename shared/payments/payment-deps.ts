import type { Config } from '../config.js';
import { createSecretBox, type SecretBox } from './secret-box.js';
import { stripeClients, type StripeFor } from './stripe-client.js';

/** What payment code uses besides the table: the secret box and Stripe clients, both built lazily, once per container. */
export type PaymentDeps = { payments: { secrets: SecretBox; stripe: StripeFor } };

export function createPaymentDeps(config: Config): PaymentDeps['payments'] {
  return { secrets: createSecretBox(config), stripe: stripeClients(config) };
}
