import { Duration } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { MathExpression, Metric } from 'aws-cdk-lib/aws-cloudwatch';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { Surface } from '../routes.js';

/**
 * The metrics the alarms watch and the dashboard draws, defined once so the two always show the same thing.
 * All but `purchasesNotIssued` are AWS's own metrics; that one is the functions' own count (shared/platform/observability/metrics.ts).
 */
export const METRIC_PERIOD = Duration.minutes(5);

export function apiMetrics(api: HttpApi) {
  const requests = api.metricCount({ period: METRIC_PERIOD, statistic: 'Sum', label: 'Requests' });
  const serverErrors = api.metricServerError({ period: METRIC_PERIOD, statistic: 'Sum', label: '5xx' });
  return {
    requests,
    serverErrors,
    clientErrors: api.metricClientError({ period: METRIC_PERIOD, statistic: 'Sum', label: '4xx' }),
    // A period without requests has no rate rather than a division by zero.
    serverErrorRate: new MathExpression({
      expression: 'IF(requests > 0, 100 * errors / requests, 0)',
      usingMetrics: { requests, errors: serverErrors },
      period: METRIC_PERIOD,
      label: '5xx (% of requests)',
    }),
    latencyP99: api.metricLatency({ period: METRIC_PERIOD, statistic: 'p99', label: 'API latency p99' }),
  };
}

export function functionMetrics(fn: LambdaFunction, name: string, throttling = { minimum: 1 }) {
  const invocations = fn.metricInvocations({ period: METRIC_PERIOD, statistic: 'Sum', label: name });
  const throttles = fn.metricThrottles({ period: METRIC_PERIOD, statistic: 'Sum', label: name });
  return {
    invocations,
    errors: fn.metricErrors({ period: METRIC_PERIOD, statistic: 'Sum', label: name }),
    throttles,
    // Invocations do not count throttled attempts: the share is of both. A period with fewer throttles than
    // `minimum` reads 0, so a handful refused in a burst is not a rate.
    throttledPercent: new MathExpression({
      expression: `IF(throttles >= ${throttling.minimum}, 100 * throttles / (invocations + throttles), 0)`,
      usingMetrics: { invocations, throttles },
      period: METRIC_PERIOD,
      label: `${name} throttled (% of attempts)`,
    }),
    durationP99: fn.metricDuration({ period: METRIC_PERIOD, statistic: 'p99', label: `${name} duration p99` }),
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
  return { bounceRate: reputation('Reputation.BounceRate', 'Bounce rate'), complaintRate: reputation('Reputation.ComplaintRate', 'Complaint rate') };
}

/** The function that issues purchases: its service name is the `service` dimension of what it counts. */
const PURCHASE_SERVICE: Surface = 'stripeWebhook';

/**
 * Paid checkouts whose license could not be issued (shared/billing/commerce/purchase.ts), as the Stripe webhook counts them
 * in embedded metric format: in the stack's metrics namespace, with its service name as the `service` dimension.
 */
export function purchasesNotIssued(namespace: string): Metric {
  return new Metric({
    namespace,
    metricName: 'PurchasesNotIssued',
    dimensionsMap: { service: PURCHASE_SERVICE },
    period: METRIC_PERIOD,
    statistic: 'Sum',
    label: 'Paid checkouts not issued',
  });
}
