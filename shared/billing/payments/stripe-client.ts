import type Stripe from 'stripe';
import type { CoreConfig } from '../../platform/index.js';

export type StripeFor = (secretKey: string) => Promise<Stripe>;

/** Most vendors a container serves in its life; past it the oldest client is dropped. */
const MAX_CLIENTS = 100;

/**
 * How long one Stripe call may take: `timeoutMs` per attempt, one retry. Its worst case, the retry's pause included,
 * stays well under the timeout of every function that calls Stripe (test/infra/request-budgets.test.ts): a Stripe that
 * hangs is the service's own 502 `Payment provider unavailable`, never a Lambda timeout.
 */
export const STRIPE_CALL_LIMITS = { maxNetworkRetries: 1, timeoutMs: 3000 } as const;

/**
 * Stripe clients by secret key, built once each per container. The `stripe` package is imported on the first
 * call only, so a container that only validates licenses never loads it. `STRIPE_API_URL` (tests' fake) becomes
 * the client's host, port and protocol; Stripe's own is the default. Short timeouts (`STRIPE_CALL_LIMITS`): a checkout
 * waits on it.
 */
export function stripeClients(config: CoreConfig): StripeFor {
  const clients = new Map<string, Stripe>();
  const target = config.payments.stripeApiUrl ? new URL(config.payments.stripeApiUrl) : undefined;
  return async (secretKey) => {
    let client = clients.get(secretKey);
    if (!client) {
      const { default: StripeClient } = await import('stripe');
      client = new StripeClient(secretKey, {
        maxNetworkRetries: STRIPE_CALL_LIMITS.maxNetworkRetries,
        timeout: STRIPE_CALL_LIMITS.timeoutMs,
        telemetry: false,
        ...(target && {
          host: target.hostname,
          port: Number(target.port || (target.protocol === 'http:' ? 80 : 443)),
          protocol: target.protocol === 'http:' ? 'http' : 'https',
        }),
      });
      if (clients.size >= MAX_CLIENTS) clients.delete(clients.keys().next().value!);
      clients.set(secretKey, client);
    }
    return client;
  };
}
