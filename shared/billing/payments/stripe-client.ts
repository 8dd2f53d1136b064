import type Stripe from 'stripe';
import { type CoreConfig, withinDeadline } from '../../platform/index.js';

export type StripeFor = (secretKey: string) => Promise<Stripe>;

/** Most vendors a container serves in its life; past it the oldest client is dropped. */
const MAX_CLIENTS = 100;

/**
 * How long one Stripe call may take: `timeoutMs` per attempt, one retry. Its worst case, the retry's pause included,
 * stays well under the timeout of every function that calls Stripe (test/infra/request-budgets.test.ts): a Stripe that
 * hangs is the service's own 502 `Payment provider unavailable`. The request's calls together are held by its
 * deadline (shared/platform/deadline.ts): one that runs out of time is a 503, never a Lambda timeout.
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
        httpClient: deadlineBound(StripeClient.createNodeHttpClient()),
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

/**
 * Stripe's own Node client, each attempt cut off at the call's timeout or at the invocation's deadline, whichever
 * comes first; none is made once the deadline has passed (Stripe then gives up, as after its retries).
 */
function deadlineBound(inner: Stripe.HttpClient): Stripe.HttpClient {
  return Object.assign(Object.create(inner) as Stripe.HttpClient, {
    makeRequest: (...[host, port, path, method, headers, body, protocol, timeout]: Parameters<Stripe.HttpClient['makeRequest']>) =>
      withinDeadline(timeout, (attemptTimeout) => inner.makeRequest(host, port, path, method, headers, body, protocol, attemptTimeout)),
  });
}
