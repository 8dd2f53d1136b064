import { Alarm, ComparisonOperator, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { pascalCase } from '../names.js';
import type { AlarmTopic } from './alarm-topic.js';
import { apiMetrics, functionMetrics, iteratorAge, purchasesNotIssued, sesReputation } from './service-metrics.js';

/** Where each alarm goes off. Each is a reason to look now, not a trend. */
export const ALARM_THRESHOLDS = {
  /** A 5xx is always a bug (DECISIONS §2), so 1% of a 5-minute period's requests is already many. */
  serverErrorPercent: 1,
  /** Plugins' validate and activate calls; sustained for 15 minutes, so a burst of cold starts does not page anyone. */
  edgeDurationP99Ms: 1000,
  edgeDurationPeriods: 3,
  /** Webhooks and e-mails fall behind the changes they report; at an hour the stream gives records up to the sweep. */
  streamIteratorAgeMs: 10 * 60 * 1000,
  /**
   * Lambda refusing a function (the account's concurrency, often 10 on a new account, or a queue's share of it): only
   * when it lasts. A burst of a few refused calls is retried (queues, streams) or answered 429 and retried by the
   * plugin; more than 1% of a function's attempts refused in each of three 5-minute periods, at least 10 in each, is a
   * quota to raise (docs/deploy.md, "Go-live checklist").
   */
  throttledPercent: 1,
  throttledMinimum: 10,
  throttledPeriods: 3,
  /** Below the rates at which SES puts the account under review (5% bounces, 0.1% complaints). */
  sesBounceRate: 0.04,
  sesComplaintRate: 0.0008,
} as const;

export interface ServiceAlarmsProps {
  /** Starts every alarm's name: the stack's name, so the stages in one account tell their alarms apart. */
  readonly namePrefix: string;
  /** Where the functions' own counts are (`POWERTOOLS_METRICS_NAMESPACE`). */
  readonly metricsNamespace: string;
  readonly topic: AlarmTopic;
  readonly api: HttpApi;
  /** Every function of the stack, by the name its alarms carry: each gets an errors and a throttles alarm. */
  readonly functions: Record<string, LambdaFunction>;
  /** The function behind the plugins' routes, whose p99 duration is watched. */
  readonly edgeFunction: LambdaFunction;
  /** The consumer of the table's stream (the webhook fan-out). */
  readonly streamConsumer: LambdaFunction;
}

/** The stack's alarms, each reporting to the alarm topic. A period without data is OK: no traffic is not a fault. */
export class ServiceAlarms extends Construct {
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, private readonly props: ServiceAlarmsProps) {
    super(scope, id);
    const api = apiMetrics(props.api);
    this.add('ApiServerErrorRate', 'api-5xx-rate', api.serverErrorRate, ALARM_THRESHOLDS.serverErrorPercent, {
      description: `More than ${ALARM_THRESHOLDS.serverErrorPercent}% of the HTTP API's requests answered 5xx in 5 minutes: see the access log and the functions' logs`,
      comparison: ComparisonOperator.GREATER_THAN_THRESHOLD,
    });
    this.add('EdgeDurationP99', 'edge-duration-p99', functionMetrics(props.edgeFunction, 'edge').durationP99, ALARM_THRESHOLDS.edgeDurationP99Ms, {
      description: `The edge function's p99 duration (validate, activate, update check) stayed above ${ALARM_THRESHOLDS.edgeDurationP99Ms} ms for 15 minutes`,
      comparison: ComparisonOperator.GREATER_THAN_THRESHOLD,
      periods: ALARM_THRESHOLDS.edgeDurationPeriods,
    });
    for (const [name, fn] of Object.entries(props.functions)) {
      const metrics = functionMetrics(fn, name, { minimum: ALARM_THRESHOLDS.throttledMinimum });
      this.add(`${pascalCase(name)}Errors`, `${name}-errors`, metrics.errors, 1, {
        description: `The ${name} function failed (an uncaught error or a timeout): see its log group`,
      });
      this.add(`${pascalCase(name)}Throttles`, `${name}-throttles`, metrics.throttledPercent, ALARM_THRESHOLDS.throttledPercent, {
        description:
          `Lambda kept refusing the ${name} function for 15 minutes (over ${ALARM_THRESHOLDS.throttledPercent}% of its attempts): the account's ` +
          'concurrency is too small for the load; ask for more (docs/deploy.md, go-live checklist)',
        comparison: ComparisonOperator.GREATER_THAN_THRESHOLD,
        periods: ALARM_THRESHOLDS.throttledPeriods,
      });
    }
    this.add('StreamIteratorAge', 'webhook-stream-iterator-age', iteratorAge(props.streamConsumer), ALARM_THRESHOLDS.streamIteratorAgeMs, {
      description: 'The outbox fan-out is more than 10 minutes behind the table stream: webhooks and license e-mails are late; records an hour old are given up to the outbox sweep',
      comparison: ComparisonOperator.GREATER_THAN_THRESHOLD,
    });
    this.add('PurchasesNotIssued', 'purchases-not-issued', purchasesNotIssued(props.metricsNamespace), 1, {
      description:
        'A buyer paid and the Stripe webhook could not issue the license (it answered 500, and Stripe retries for 3 days): ' +
        'see the "Paid checkout not issued" lines of the stripeWebhook log group for the tenant, session and reason',
    });
    const ses = sesReputation();
    this.add('SesBounceRate', 'ses-bounce-rate', ses.bounceRate, ALARM_THRESHOLDS.sesBounceRate, {
      description: 'The account\'s SES bounce rate reached 4%; at 5% SES reviews the account and may stop its sending (license e-mails)',
    });
    this.add('SesComplaintRate', 'ses-complaint-rate', ses.complaintRate, ALARM_THRESHOLDS.sesComplaintRate, {
      description: 'The account\'s SES complaint rate reached 0.08%; at 0.1% SES reviews the account and may stop its sending',
    });
  }

  private add(
    id: string,
    name: string,
    metric: IMetric,
    threshold: number,
    options: { description: string; comparison?: ComparisonOperator; periods?: number },
  ): void {
    const alarm = new Alarm(this, id, {
      alarmName: `${this.props.namePrefix}-${name}`,
      alarmDescription: options.description,
      metric,
      threshold,
      comparisonOperator: options.comparison ?? ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: options.periods ?? 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    this.props.topic.notify(alarm);
    this.alarms.push(alarm);
  }
}
