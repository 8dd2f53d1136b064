import type { CoreConfig } from '../../platform/index.js';
import type { SecretBox } from '../../platform/secrets/index.js';
import { stripeClients, type StripeFor } from './stripe-client.js';

/** What payment code uses besides the table: the secret box and Stripe clients, both built lazily, once per container. */
export type PaymentDeps = { payments: { secrets: SecretBox; stripe: StripeFor } };

/** `secrets`: the container's one secret box, made with the function's `SECRET_ACCESS` (which opens vendors' Stripe secrets). */
export function createPaymentDeps(config: CoreConfig, secrets: SecretBox): PaymentDeps['payments'] {
  return { secrets, stripe: stripeClients(config) };
}
