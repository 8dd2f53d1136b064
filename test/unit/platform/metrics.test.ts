import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMetricsRecorder, METRIC_DIMENSIONS, METRICS_SERVICE, PUBLISH_INTERVAL_MS } from '../../../shared/platform/observability/metrics.js';

afterEach(() => {
  vi.unstubAllEnvs();
  vi.restoreAllMocks();
});

/** The EMF records published, as CloudWatch reads them (POWERTOOLS_DEV: written through the console). */
function publishedBy(publish: () => void): Record<string, any>[] {
  const printed = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  publish();
  const records = printed.mock.calls.map(([line]) => JSON.parse(String(line)));
  printed.mockRestore();
  return records;
}

describe('metrics', () => {
  it('publishes one EMF record per metric and set of dimension values and details, a series per dimension value only', () => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    vi.stubEnv('POWERTOOLS_SERVICE_NAME', 'edge');
    let now = 0;
    const metrics = createMetricsRecorder({ clock: () => now });
    metrics.validation('valid');
    metrics.validation('valid');
    metrics.validation('invalid');
    metrics.refusal('validate', 'expired');
    metrics.refusal('activate', 'seat_limit');

    const records = publishedBy(() => metrics.publish());
    const validations = [{ Namespace: 'LicensingService', Dimensions: [['service', 'result']], Metrics: [{ Name: 'Validations', Unit: 'Count' }] }];
    // A refusal's operation and reason are fields of the record (Logs Insights reads them), not dimensions: one series.
    const refusals = [{ Namespace: 'LicensingService', Dimensions: [['service']], Metrics: [{ Name: 'Refusals', Unit: 'Count' }] }];
    expect(records.map(({ _aws, ...fields }) => [_aws.CloudWatchMetrics, fields])).toEqual([
      [validations, { function: 'edge', service: METRICS_SERVICE, result: 'valid', Validations: 2 }],
      [validations, { function: 'edge', service: METRICS_SERVICE, result: 'invalid', Validations: 1 }],
      [refusals, { function: 'edge', service: METRICS_SERVICE, operation: 'validate', reason: 'expired', Refusals: 1 }],
      [refusals, { function: 'edge', service: METRICS_SERVICE, operation: 'activate', reason: 'seat_limit', Refusals: 1 }],
    ]);
    // What was written is not written again, and an invocation that counted nothing writes nothing.
    now += PUBLISH_INTERVAL_MS;
    expect(publishedBy(() => metrics.publish())).toEqual([]);
    metrics.webhookDelivery('retried');
    expect(publishedBy(() => metrics.publish()).map((r) => [r.outcome, r.WebhookDeliveries])).toEqual([['retried', 1]]);
  });

  it('sums the counts of a busy minute into one write, and writes at once after a quiet one', () => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    let now = 1_000_000;
    const metrics = createMetricsRecorder({ clock: () => now });
    const invocation = (seconds: number) => {
      now += seconds * 1000;
      metrics.validation('valid');
      return publishedBy(() => metrics.publish()).map((r) => r.Validations);
    };
    expect(invocation(0)).toEqual([1]); // the container's first write is not held back
    expect(invocation(1)).toEqual([]);
    expect(invocation(30)).toEqual([]);
    expect(invocation(29)).toEqual([3]); // a minute after the last write: the three since then, in one record
    expect(invocation(61)).toEqual([1]); // after a quiet minute, at once
  });

  it('writes a count an alarm watches at once, with what the minute held back so far', () => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    vi.stubEnv('POWERTOOLS_SERVICE_NAME', 'stripeWebhook');
    let now = 1_000_000;
    const metrics = createMetricsRecorder({ clock: () => now });
    metrics.stripeEvent('checkout.session.completed');
    expect(publishedBy(() => metrics.publish())).toHaveLength(1);
    now += 1000;
    metrics.stripeEvent('checkout.session.completed');
    expect(publishedBy(() => metrics.publish())).toEqual([]);
    now += 1000;
    metrics.purchaseNotIssued();
    const records = publishedBy(() => metrics.publish());
    expect(records.map(({ _aws, ...fields }) => [_aws.CloudWatchMetrics[0].Dimensions, fields])).toEqual([
      [[['service']], { function: 'stripeWebhook', service: METRICS_SERVICE, type: 'checkout.session.completed', StripeEvents: 1 }],
      [[['service']], { function: 'stripeWebhook', service: METRICS_SERVICE, PurchasesNotIssued: 1 }],
    ]);
    // Back to the minute's rhythm after it.
    now += 1000;
    metrics.stripeEvent('checkout.session.completed');
    expect(publishedBy(() => metrics.publish())).toEqual([]);
  });

  it('takes its namespace from POWERTOOLS_METRICS_NAMESPACE and names every counter the docs name', () => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    vi.stubEnv('POWERTOOLS_METRICS_NAMESPACE', 'Licensing/Test');
    const metrics = createMetricsRecorder();
    metrics.activation();
    metrics.rateLimited('activation-key');
    metrics.stripeEvent('checkout.session.completed');
    const records = publishedBy(() => metrics.publish());
    expect(records.map((r) => r._aws.CloudWatchMetrics[0].Namespace)).toEqual(['Licensing/Test', 'Licensing/Test', 'Licensing/Test']);
    expect(records.map(({ _aws, service, function: _, ...fields }) => fields)).toEqual([
      { Activations: 1 },
      { limit: 'activation-key', RateLimited: 1 },
      { type: 'checkout.session.completed', StripeEvents: 1 },
    ]);
  });

  it('counts every metric of METRIC_DIMENSIONS, each with the dimensions it declares and no other', () => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    const metrics = createMetricsRecorder();
    metrics.validation('valid');
    metrics.activation();
    metrics.refusal('check', 'revoked');
    metrics.rateLimited('public-reads');
    metrics.webhookDelivery('failed');
    metrics.stripeEvent('invoice.paid');
    metrics.mailRefused('MessageRejected');
    metrics.purchaseNotIssued();
    metrics.frontDoorRefusal();
    metrics.workerFailure();
    const records = publishedBy(() => metrics.publish());
    expect(Object.fromEntries(records.map((r) => [r._aws.CloudWatchMetrics[0].Metrics[0].Name, r._aws.CloudWatchMetrics[0].Dimensions[0]]))).toEqual(
      Object.fromEntries(Object.entries(METRIC_DIMENSIONS).map(([name, dimensions]) => [name, ['service', ...Object.keys(dimensions)]])),
    );
  });

  it('counts nothing when metrics are off (the local runtime and tests)', () => {
    // vitest.config.ts sets POWERTOOLS_METRICS_DISABLED=true, as the local stack does.
    const metrics = createMetricsRecorder();
    metrics.validation('valid');
    expect(publishedBy(() => metrics.publish())).toEqual([]);
  });
});
