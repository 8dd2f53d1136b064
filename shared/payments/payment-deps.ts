import type { CoreConfig } from '../config.js';
import { createSecretBox, type SecretBox } from '../secrets/secret-box.js';
import { stripeClients, type StripeFor } from './stripe-client.js';

/** What payment code uses besides the table: the secret box and Stripe clients, both built lazily, once per container. */
export type PaymentDeps = { payments: { secrets: SecretBox; stripe: StripeFor } };

/** `secrets`: the container's one secret box, when it has one already (the management API's also seals signing keys). */
export function createPaymentDeps(config: CoreConfig, secrets: SecretBox = createSecretBox(config)): PaymentDeps['payments'] {
  return { secrets, stripe: stripeClients(config) };
}
