import { Duration } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { Distribution } from 'aws-cdk-lib/aws-cloudfront';
import { MathExpression, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { METRICS_SERVICE, type MetricName } from '../../shared/platform/observability/metrics.js';

/**
 * The metrics the alarms watch and the dashboard draws, defined once so the two always show the same thing.
 * Most are AWS's own; `serviceCount` reads the functions' own counts (shared/platform/observability/metrics.ts).
 */
export const METRIC_PERIOD = Duration.minutes(5);

export function apiMetrics(api: HttpApi) {
  return {
    requests: api.metricCount({ period: METRIC_PERIOD, statistic: 'Sum', label: 'Requests' }),
    serverErrors: api.metricServerError({ period: METRIC_PERIOD, statistic: 'Sum', label: '5xx' }),
    clientErrors: api.metricClientError({ period: METRIC_PERIOD, statistic: 'Sum', label: '4xx' }),
    latencyP99: api.metricLatency({ period: METRIC_PERIOD, statistic: 'p99', label: 'API latency p99' }),
  };
}

export function functionMetrics(fn: LambdaFunction, name: string) {
  return {
    errors: fn.metricErrors({ period: METRIC_PERIOD, statistic: 'Sum', label: name }),
    durationP99: fn.metricDuration({ period: METRIC_PERIOD, statistic: 'p99', label: `${name} duration p99` }),
  };
}

/**
 * Lambda's counts over every function of the account in this region (every stage's): one metric each where one per
 * function would be sixteen, and what the account's concurrency quota is about.
 */
export function accountLambdaMetrics() {
  const lambda = (metricName: string, statistic: string, label: string) => new Metric({ namespace: 'AWS/Lambda', metricName, period: METRIC_PERIOD, statistic, label });
  return {
    invocations: lambda('Invocations', 'Sum', 'Invocations'),
    throttles: lambda('Throttles', 'Sum', 'Throttles'),
    concurrency: lambda('ConcurrentExecutions', 'Maximum', 'Concurrent executions (max)'),
  };
}

/** How far behind the newest stream record a stream consumer is, in milliseconds. */
export function iteratorAge(fn: LambdaFunction): Metric {
  return fn.metric('IteratorAge', { period: METRIC_PERIOD, statistic: 'Maximum', label: 'Iterator age (max)' });
}

/**
 * The account's SES reputation in this region (a fraction, 0.05 = 5%). SES publishes it as a running rate over
 * recent sends, so an hour's maximum is enough; every stage in the account shares it.
 */
export function sesReputation() {
  const reputation = (metricName: string, label: string) =>
    new Metric({ namespace: 'AWS/SES', metricName, period: Duration.hours(1), statistic: 'Maximum', label });
  const bounceRate = reputation('Reputation.BounceRate', 'Bounce rate');
  const complaintRate = reputation('Reputation.ComplaintRate', 'Complaint rate');
  return {
    bounceRate,
    complaintRate,
    /** The larger of the two rates as a share of its own limit: 1 when either reaches it. One alarm for both. */
    reviewShare: (bounceLimit: number, complaintLimit: number) =>
      new MathExpression({
        expression: `MAX([bounces / ${bounceLimit}, complaints / ${complaintLimit}])`,
        usingMetrics: { bounces: bounceRate, complaints: complaintRate },
        period: Duration.hours(1),
        label: 'SES rates (share of the alarm limits)',
      }),
  };
}

/** One of the functions' own counts: its one series (the `service` dimension has one value). */
export function serviceCount(namespace: string, metricName: MetricName, dimensions: Record<string, string> = {}): Metric {
  return new Metric({
    namespace,
    metricName,
    dimensionsMap: { service: METRICS_SERVICE, ...dimensions },
    period: METRIC_PERIOD,
    statistic: 'Sum',
    label: Object.values(dimensions).join(' ') || metricName,
  });
}

/** The front door's own counts, which CloudFront keeps in us-east-1 whatever the stack's region (graphs only). */
export function frontDoorMetrics(distribution: Distribution) {
  const cloudFront = (metricName: string, statistic: string, label: string) =>
    new Metric({ namespace: 'AWS/CloudFront', metricName, region: 'us-east-1', dimensionsMap: { DistributionId: distribution.distributionId, Region: 'Global' }, period: METRIC_PERIOD, statistic, label });
  return {
    requests: cloudFront('Requests', 'Sum', 'Requests'),
    serverErrorRate: cloudFront('5xxErrorRate', 'Average', '5xx (%)'),
    clientErrorRate: cloudFront('4xxErrorRate', 'Average', '4xx (%)'),
  };
}
