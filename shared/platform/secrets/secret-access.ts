/**
 * What each function may do with sealed values, by kind: the stack turns these into KMS grants conditioned on the
 * encryption context's `kind` (infra/constructs/provider-secrets-key.ts) and every function's secret box enforces the
 * same list (shared/platform/secrets/secret-box.ts), so a function that reaches for another kind fails in the tests as in AWS.
 */

/** What a sealed value is; part of its encryption context, so KMS itself can tell them apart. */
export const SEALED_KINDS = ['stripe-secret', 'webhook-secret', 'signing-key'] as const;
export type SealedKind = (typeof SEALED_KINDS)[number];

/** Seal and open every kind (the management API), or open these kinds only. */
export type SecretAccess = 'sealAndOpen' | { readonly open: readonly SealedKind[] };

export const SECRET_ACCESS = {
  /** Connects payment providers, makes products' signing keys and webhooks' secrets, and shows webhooks' secrets. */
  management: 'sealAndOpen',
  /** Signs answers with products' keys; no vendor's Stripe or webhook secret. */
  edge: { open: ['signing-key'] },
  /** Signs answers and offline files; checkout opens the vendor's Stripe key. */
  public: { open: ['signing-key', 'stripe-secret'] },
  /** Cancels subscriptions with the vendor's Stripe key. */
  portal: { open: ['stripe-secret'] },
  /** Checks the vendor's Stripe webhook secret, reads subscriptions with its key. */
  stripeWebhook: { open: ['stripe-secret'] },
  /** Signs deliveries with the webhook's secret. */
  webhookDispatcher: { open: ['webhook-secret'] },
} as const satisfies Record<string, SecretAccess>;
