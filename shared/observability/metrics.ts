import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

const DEFAULT_NAMESPACE = 'LicensingService';
const TRUE_VALUES = ['1', 'true', 'yes', 'on'];

/** As Powertools decides it: `POWERTOOLS_METRICS_DISABLED` when set, otherwise off under `POWERTOOLS_DEV`. */
function metricsDisabled(env: NodeJS.ProcessEnv): boolean {
  return TRUE_VALUES.includes((env.POWERTOOLS_METRICS_DISABLED ?? env.POWERTOOLS_DEV ?? '').trim().toLowerCase());
}

export type ValidationResult = 'valid' | 'invalid';
export type LicenseOperation = 'validate' | 'activate' | 'deactivate' | 'check';
export type DeliveryOutcome = 'succeeded' | 'retried' | 'failed';

/**
 * Counters in CloudWatch's embedded metric format, written to stdout when an invocation ends. An EMF
 * record has one value per dimension, so each metric with each set of dimension values has a Metrics
 * object of its own, made the first time it is counted in a container: an invocation that counts
 * Validations{result=invalid} and Refusals{operation=validate, reason=expired} writes two records.
 * Metrics turned off (`POWERTOOLS_METRICS_DISABLED`, or `POWERTOOLS_DEV`) are not even counted.
 */
export function createMetricsRecorder(options: { namespace?: string } = {}) {
  type Counter = { name: string; metrics: Metrics };
  const counters = new Map<string, Counter>();
  /** This invocation's counts, added to Powertools once each as it ends: one value per record, never an array. */
  const counted = new Map<Counter, number>();
  // The environment is read at the first count, not as the module loads: it is complete by the first invocation.
  let disabled: boolean | undefined;

  function count(name: string, dimensions: Record<string, string>, key: string): void {
    disabled ??= metricsDisabled(process.env);
    if (disabled) return;
    let counter = counters.get(key);
    if (!counter) {
      const namespace = options.namespace ?? (process.env.POWERTOOLS_METRICS_NAMESPACE || DEFAULT_NAMESPACE);
      counter = { name, metrics: new Metrics({ namespace, defaultDimensions: dimensions }) };
      counters.set(key, counter);
    }
    counted.set(counter, (counted.get(counter) ?? 0) + 1);
  }

  return {
    validation: (result: ValidationResult) => count('Validations', { result }, `Validations#${result}`),
    activation: () => count('Activations', {}, 'Activations'),
    /** A license operation answered with a 4xx, by reason (see shared/licensing/refusal-reason.ts). */
    refusal: (operation: LicenseOperation, reason: string) =>
      count('Refusals', { operation, reason }, `Refusals#${operation}#${reason}`),
    /** A 429, by the rate limit's name (shared/rate-limits/limits.ts). */
    rateLimited: (limit: string) => count('RateLimited', { limit }, `RateLimited#${limit}`),
    /** An attempt of a webhook delivery ended: sent, to be tried again, or given up. */
    webhookDelivery: (outcome: DeliveryOutcome) => count('WebhookDeliveries', { outcome }, `WebhookDeliveries#${outcome}`),
    /** A Stripe event received, by its `type` (`checkout.session.completed`, …): for the Stripe webhook. */
    stripeEvent: (type: string) => count('StripeEvents', { type }, `StripeEvents#${type}`),
    /** Writes what this invocation counted, one record per set of dimensions; called once as it ends. */
    publish(): void {
      for (const [{ name, metrics }, value] of counted) metrics.addMetric(name, MetricUnit.Count, value).publishStoredMetrics();
      counted.clear();
    },
  };
}

export type MetricsRecorder = ReturnType<typeof createMetricsRecorder>;

/** The counters of this container, published by the middleware every function's chain includes. */
export const metrics = createMetricsRecorder();
