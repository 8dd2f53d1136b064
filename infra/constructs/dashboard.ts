import { AlarmStatusWidget, Dashboard, GraphWidget, type IAlarm, type IMetric, type IWidget } from 'aws-cdk-lib/aws-cloudwatch';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { Distribution } from 'aws-cdk-lib/aws-cloudfront';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { METRIC_DIMENSIONS } from '../../shared/platform/observability/metrics.js';
import { accountLambdaMetrics, apiMetrics, frontDoorMetrics, functionMetrics, iteratorAge, METRIC_PERIOD, serviceCount, sesReputation } from './service-metrics.js';

/**
 * The most metrics a dashboard may reference and stay in CloudWatch's free tier (three such dashboards an account; a
 * bigger one is $3 a month: docs/cost.md). `test/infra/cost.test.ts` holds the dashboard to it.
 */
export const FREE_DASHBOARD_METRICS = 50;

export interface ServiceDashboardProps {
  readonly dashboardName: string;
  /** The functions' own counts (`POWERTOOLS_METRICS_NAMESPACE`). */
  readonly metricsNamespace: string;
  readonly api: HttpApi;
  /** Every function of the stack, by name: their errors, one line each. */
  readonly functions: Record<string, LambdaFunction>;
  readonly edgeFunction: LambdaFunction;
  readonly streamConsumer: LambdaFunction;
  /** The front door's distribution, when there is one: its requests and error rates (kept in us-east-1). */
  readonly distribution?: Distribution;
  /** Each dead-letter queue by what it holds (`Webhook`, `Mail`). */
  readonly deadLetterQueues: Record<string, Queue>;
  /** Shown first, so the page opens on what is wrong. */
  readonly alarms: IAlarm[];
}

const WIDTH = 8;
const HEIGHT = 6;

/**
 * One CloudWatch dashboard: the alarms' states on top, then what they watch and what explains them. Lambda's own
 * invocations and throttles are drawn for the account (one line each, not one per function), so that the dashboard
 * stays within the free tier's 50 metrics.
 */
export class ServiceDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: ServiceDashboardProps) {
    super(scope, id);
    const api = apiMetrics(props.api);
    const lambda = accountLambdaMetrics();
    const ses = sesReputation();
    const count = serviceCount.bind(null, props.metricsNamespace);
    const graph = (title: string, left: IMetric[], leftYAxisLabel?: string): IWidget =>
      new GraphWidget({ title, left, width: WIDTH, height: HEIGHT, period: METRIC_PERIOD, leftYAxis: { label: leftYAxisLabel, min: 0 } });
    const frontDoor = props.distribution && frontDoorMetrics(props.distribution);

    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: props.dashboardName,
      widgets: [
        [new AlarmStatusWidget({ title: 'Alarms', alarms: [...new Set(props.alarms)], width: 3 * WIDTH, height: 4 })],
        [
          graph('HTTP API requests', [api.requests, api.clientErrors, api.serverErrors]),
          graph('Latency p99', [api.latencyP99, functionMetrics(props.edgeFunction, 'edge').durationP99], 'ms'),
          ...(frontDoor ? [graph('Front door (CloudFront, us-east-1)', [frontDoor.requests, frontDoor.clientErrorRate, frontDoor.serverErrorRate])] : []),
        ],
        [
          graph('Function errors', Object.entries(props.functions).map(([name, fn]) => functionMetrics(fn, name).errors)),
          graph('Lambda in this account and region', [lambda.invocations, lambda.throttles, lambda.concurrency]),
          graph('Refused or failed', [count('FrontDoorRefusals'), count('WorkerFailures'), count('PurchasesNotIssued'), count('MailRefused'), count('RateLimited'), count('Refusals')]),
        ],
        [
          graph(
            'Dead-letter queues',
            Object.entries(props.deadLetterQueues).map(([label, queue]) =>
              queue.metricApproximateNumberOfMessagesVisible({ period: METRIC_PERIOD, statistic: 'Maximum', label }),
            ),
          ),
          graph('Table stream: outbox fan-out iterator age', [iteratorAge(props.streamConsumer)], 'ms'),
          graph('SES reputation (account, this region)', [ses.bounceRate, ses.complaintRate], 'fraction'),
        ],
        [
          graph('Validations', METRIC_DIMENSIONS.Validations.result.map((result) => count('Validations', { result }))),
          graph('Webhook deliveries', METRIC_DIMENSIONS.WebhookDeliveries.outcome.map((outcome) => count('WebhookDeliveries', { outcome }))),
          graph('Activations and Stripe events', [count('Activations'), count('StripeEvents')]),
        ],
      ],
    });
  }
}
