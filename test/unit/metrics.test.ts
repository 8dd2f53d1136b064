import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMetricsRecorder } from '../../shared/observability/metrics.js';

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
  it('publishes one EMF record per metric and set of dimension values, once per invocation', () => {
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    vi.stubEnv('POWERTOOLS_SERVICE_NAME', 'edge');
    const metrics = createMetricsRecorder();
    metrics.validation('valid');
    metrics.validation('valid');
    metrics.validation('invalid');
    metrics.refusal('validate', 'expired');

    const records = publishedBy(() => metrics.publish());
    expect(records.map(({ _aws, ...fields }) => [_aws.CloudWatchMetrics, fields])).toEqual([
      [[{ Namespace: 'LicensingService', Dimensions: [['service', 'result']], Metrics: [{ Name: 'Validations', Unit: 'Count' }] }], { service: 'edge', result: 'valid', Validations: 2 }],
      [[{ Namespace: 'LicensingService', Dimensions: [['service', 'result']], Metrics: [{ Name: 'Validations', Unit: 'Count' }] }], { service: 'edge', result: 'invalid', Validations: 1 }],
      [
        [{ Namespace: 'LicensingService', Dimensions: [['service', 'operation', 'reason']], Metrics: [{ Name: 'Refusals', Unit: 'Count' }] }],
        { service: 'edge', operation: 'validate', reason: 'expired', Refusals: 1 },
      ],
    ]);
    // The next invocation starts empty, and one that counted nothing writes nothing.
    expect(publishedBy(() => metrics.publish())).toEqual([]);
    metrics.webhookDelivery('retried');
    expect(publishedBy(() => metrics.publish()).map((r) => [r.outcome, r.WebhookDeliveries])).toEqual([['retried', 1]]);
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
    expect(records.map(({ _aws, service, ...fields }) => fields)).toEqual([
      { Activations: 1 },
      { limit: 'activation-key', RateLimited: 1 },
      { type: 'checkout.session.completed', StripeEvents: 1 },
    ]);
  });

  it('counts nothing when metrics are off (the local runtime and tests)', () => {
    // vitest.config.ts sets POWERTOOLS_METRICS_DISABLED=true, as the local stack does.
    const metrics = createMetricsRecorder();
    metrics.validation('valid');
    expect(publishedBy(() => metrics.publish())).toEqual([]);
  });
});
