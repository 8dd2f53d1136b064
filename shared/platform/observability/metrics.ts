import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';

const DEFAULT_NAMESPACE = 'LicensingService';
/**
 * A busy container writes its counts at most this often. Every EMF record is a log line, and log ingestion is
 * paid per byte: one record per validate would add about $0.15 per million validations (docs/cost.md), a
 * tenth of their price. What is lost: the counts of a container's last minute, when it is reclaimed before
 * another invocation ends.
 */
export const PUBLISH_INTERVAL_MS = 60_000;
const TRUE_VALUES = ['1', 'true', 'yes', 'on'];

/** As Powertools decides it: `POWERTOOLS_METRICS_DISABLED` when set, otherwise off under `POWERTOOLS_DEV`. */
function metricsDisabled(env: NodeJS.ProcessEnv): boolean {
  return TRUE_VALUES.includes((env.POWERTOOLS_METRICS_DISABLED ?? env.POWERTOOLS_DEV ?? '').trim().toLowerCase());
}

export type ValidationResult = 'valid' | 'invalid';
export type LicenseOperation = 'validate' | 'activate' | 'deactivate' | 'check' | 'offline' | 'lease' | 'heartbeat';
export type DeliveryOutcome = 'succeeded' | 'retried' | 'failed';

/**
 * The one value of every metric's `service` dimension. CloudWatch bills each series (a metric with one set of dimension
 * values, $0.30 a month when written in every hour of it), so the function that counted is not a dimension but a field
 * of the record (`function`), as are the details (operation, reason, limit, event type): Logs Insights groups by them.
 */
export const METRICS_SERVICE = 'licensing';

/**
 * Each metric with the dimensions beside `service` and the values each takes: the series it can make (`npm run cost`
 * counts them). A detail with many values (a refusal's reason, a rate limit's name) is never a dimension.
 */
export const METRIC_DIMENSIONS = {
  Validations: { result: ['valid', 'invalid'] satisfies ValidationResult[] },
  Activations: {},
  Refusals: {},
  RateLimited: {},
  WebhookDeliveries: { outcome: ['succeeded', 'retried', 'failed'] satisfies DeliveryOutcome[] },
  StripeEvents: {},
  MailRefused: {},
  PurchasesNotIssued: {},
  FrontDoorRefusals: {},
  WorkerFailures: {},
} as const;
export type MetricName = keyof typeof METRIC_DIMENSIONS;

/**
 * Counters in CloudWatch's embedded metric format, written to stdout as an invocation ends: at once when the
 * container last wrote more than PUBLISH_INTERVAL_MS ago (so a quiet container loses nothing), otherwise summed
 * into the next write. An EMF record has one value per field, so each metric with each set of dimension values and
 * details has a Metrics object of its own, made the first time it is counted in a container: counts of
 * Validations{result=invalid} and Refusals with {operation: validate, reason: expired} are two records.
 * Metrics turned off (`POWERTOOLS_METRICS_DISABLED`, or `POWERTOOLS_DEV`) are not even counted.
 */
export function createMetricsRecorder(options: { namespace?: string; clock?: () => number } = {}) {
  type Counter = { name: MetricName; metrics: Metrics; details: Record<string, string> };
  const counters = new Map<string, Counter>();
  const clock = options.clock ?? Date.now;
  /** Counts not yet written, added to Powertools once each when written: one value per record, never an array. */
  const counted = new Map<Counter, number>();
  let lastPublished: number | undefined;
  /** A count someone must hear of now (an alarm watches it): the invocation's end writes at once. */
  let urgent = false;
  // The environment is read at the first count, not as the module loads: it is complete by the first invocation.
  let disabled: boolean | undefined;

  function count(name: MetricName, dimensions: Record<string, string>, details: Record<string, string> = {}, how: { urgent?: boolean } = {}): void {
    disabled ??= metricsDisabled(process.env);
    if (disabled) return;
    if (how.urgent) urgent = true;
    const key = JSON.stringify([name, dimensions, details]);
    let counter = counters.get(key);
    if (!counter) {
      const namespace = options.namespace ?? (process.env.POWERTOOLS_METRICS_NAMESPACE || DEFAULT_NAMESPACE);
      const metrics = new Metrics({ namespace, serviceName: METRICS_SERVICE, defaultDimensions: dimensions });
      counter = { name, metrics, details: { function: process.env.POWERTOOLS_SERVICE_NAME || 'service_undefined', ...details } };
      counters.set(key, counter);
    }
    counted.set(counter, (counted.get(counter) ?? 0) + 1);
  }

  return {
    validation: (result: ValidationResult) => count('Validations', { result }),
    activation: () => count('Activations', {}),
    /** A license operation answered with a 4xx, by reason (see shared/licensing/operations/refusal-reason.ts). */
    refusal: (operation: LicenseOperation, reason: string) => count('Refusals', {}, { operation, reason }),
    /** A 429, by the rate limit's name (shared/platform/rate-limits/limits.ts). */
    rateLimited: (limit: string) => count('RateLimited', {}, { limit }),
    /** An attempt of a webhook delivery ended: sent, to be tried again, or given up. */
    webhookDelivery: (outcome: DeliveryOutcome) => count('WebhookDeliveries', { outcome }),
    /** A Stripe event received, by its `type` (`checkout.session.completed`, …): for the Stripe webhook. */
    stripeEvent: (type: string) => count('StripeEvents', {}, { type }),
    /** An e-mail SES refused for good (shared/messaging/mail/send-once.ts), by SES's name for the refusal: not tried again. */
    mailRefused: (refusal: string) => count('MailRefused', {}, { refusal }),
    /** A paid checkout whose license could not be issued (shared/billing/commerce/purchase.ts): written at once. */
    purchaseNotIssued: () => count('PurchasesNotIssued', {}, {}, { urgent: true }),
    /** A request refused for coming around the front door (shared/platform/http/front-door.ts): alarmed, so written at once. */
    frontDoorRefusal: () => count('FrontDoorRefusals', {}, {}, { urgent: true }),
    /** A queue, stream or scheduled worker's invocation that failed as a whole (shared/platform/workers/app.ts): alarmed. */
    workerFailure: () => count('WorkerFailures', {}, {}, { urgent: true }),
    /**
     * Called as each invocation ends: writes the counts, one record per set of dimensions and details, when a minute
     * has passed or an urgent count is among them.
     */
    publish(): void {
      if (counted.size === 0) return;
      const now = clock();
      if (!urgent && lastPublished !== undefined && now - lastPublished < PUBLISH_INTERVAL_MS) return;
      lastPublished = now;
      urgent = false;
      for (const [{ name, metrics, details }, value] of counted) {
        for (const [field, text] of Object.entries(details)) metrics.addMetadata(field, text);
        metrics.addMetric(name, MetricUnit.Count, value).publishStoredMetrics();
      }
      counted.clear();
    },
  };
}

export type MetricsRecorder = ReturnType<typeof createMetricsRecorder>;

/** The counters of this container, published by the middleware every function's chain includes. */
export const metrics = createMetricsRecorder();
