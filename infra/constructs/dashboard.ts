import { AlarmStatusWidget, Dashboard, GraphWidget, type IAlarm, type IMetric, type IWidget } from 'aws-cdk-lib/aws-cloudwatch';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { Queue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { apiMetrics, functionMetrics, iteratorAge, METRIC_PERIOD, sesReputation } from './service-metrics.js';

export interface ServiceDashboardProps {
  readonly dashboardName: string;
  readonly api: HttpApi;
  /** Every function of the stack, by name. */
  readonly functions: Record<string, LambdaFunction>;
  readonly edgeFunction: LambdaFunction;
  readonly streamConsumer: LambdaFunction;
  /** Each dead-letter queue by what it holds (`Webhook`, `Mail`). */
  readonly deadLetterQueues: Record<string, Queue>;
  /** Shown first, so the page opens on what is wrong. */
  readonly alarms: IAlarm[];
}

const WIDTH = 8;
const HEIGHT = 6;

/** One CloudWatch dashboard with the metrics the alarms watch, and the alarms' states on top. */
export class ServiceDashboard extends Construct {
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: ServiceDashboardProps) {
    super(scope, id);
    const api = apiMetrics(props.api);
    const functions = Object.entries(props.functions).map(([name, fn]) => functionMetrics(fn, name));
    const ses = sesReputation();
    const graph = (title: string, left: IMetric[], leftYAxisLabel?: string): IWidget =>
      new GraphWidget({ title, left, width: WIDTH, height: HEIGHT, period: METRIC_PERIOD, leftYAxis: { label: leftYAxisLabel, min: 0 } });

    this.dashboard = new Dashboard(this, 'Dashboard', {
      dashboardName: props.dashboardName,
      widgets: [
        [new AlarmStatusWidget({ title: 'Alarms', alarms: props.alarms, width: 3 * WIDTH, height: 4 })],
        [
          graph('HTTP API requests', [api.requests, api.clientErrors, api.serverErrors]),
          graph('HTTP API 5xx rate', [api.serverErrorRate], '%'),
          graph('Latency p99', [api.latencyP99, functionMetrics(props.edgeFunction, 'edge').durationP99], 'ms'),
        ],
        [
          graph('Function invocations', functions.map((m) => m.invocations)),
          graph('Function errors', functions.map((m) => m.errors)),
          graph('Function throttles', functions.map((m) => m.throttles)),
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
      ],
    });
  }
}
