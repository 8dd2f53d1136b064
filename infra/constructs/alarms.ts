import { Alarm, ComparisonOperator, TreatMissingData, type IMetric } from 'aws-cdk-lib/aws-cloudwatch';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import { Construct } from 'constructs';
import type { AlarmTopic } from './alarm-topic.js';
import { apiMetrics, serviceCount, sesReputation } from './service-metrics.js';

/** Where each alarm goes off. Each is a reason to look now, not a trend. */
export const ALARM_THRESHOLDS = {
  /** A 5xx is always a bug (DECISIONS §2), or a dependency down: one is worth a look. */
  serverErrors: 1,
  /**
   * Requests refused for coming around the front door (the execute-api address, so past the firewall) in 5 minutes:
   * a few are someone trying the address; many are a caller that found it, or a front door whose secret the functions
   * no longer accept (then the health check fails too).
   */
  frontDoorRefusals: 10,
  /** A worker's or job's invocation that failed as a whole: its batch comes back, or the next run retries. */
  workerFailures: 1,
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
  /** With a front door: requests that came around it are alarmed. */
  readonly frontDoor: boolean;
}

/**
 * The stack's alarms beside the health check's (infra/constructs/health-check.ts), each reporting to the alarm topic.
 * Few, each on one metric or two, since CloudWatch bills every metric an alarm reads ($0.10 a month: docs/cost.md):
 * what the service answers (5xx), what comes around the front door, what the workers fail, and SES's view of the
 * account. A period without data is OK: no traffic is not a fault.
 */
export class ServiceAlarms extends Construct {
  readonly alarms: Alarm[] = [];

  constructor(scope: Construct, id: string, private readonly props: ServiceAlarmsProps) {
    super(scope, id);
    this.add('ApiServerErrors', 'api-5xx', apiMetrics(props.api).serverErrors, ALARM_THRESHOLDS.serverErrors, {
      description:
        'The HTTP API answered 5xx in the last 5 minutes (a bug, a timeout, a dependency down, or Lambda refusing a function for lack of ' +
        "concurrency): the access log says which route (filter status >= 500), the function's log why. A paid checkout the Stripe webhook " +
        'could not issue answers 500 too: its "Paid checkout not issued" line names the tenant and session (docs/deploy.md, "The alarms")',
    });
    if (props.frontDoor) {
      this.add('FrontDoorRefusals', 'front-door-refusals', serviceCount(props.metricsNamespace, 'FrontDoorRefusals'), ALARM_THRESHOLDS.frontDoorRefusals, {
        description:
          `The functions refused ${ALARM_THRESHOLDS.frontDoorRefusals} or more requests in 5 minutes for lacking the front door's secret: calls ` +
          "straight to the execute-api address, around the firewall (the API's access log names their addresses), or, with the health check " +
          'failing too, a front door sending a secret the functions no longer accept (docs/deploy.md, "Rotating the origin secret")',
      });
    }
    this.add('WorkerFailures', 'worker-failures', serviceCount(props.metricsNamespace, 'WorkerFailures'), ALARM_THRESHOLDS.workerFailures, {
      description:
        'A queue, stream or scheduled worker failed an invocation as a whole: its batch comes back, or the next run retries; the ' +
        '"function" field of its WorkerFailures line in the logs says which, and its log group why',
    });
    const ses = sesReputation();
    this.add('SesReputation', 'ses-reputation', ses.reviewShare(ALARM_THRESHOLDS.sesBounceRate, ALARM_THRESHOLDS.sesComplaintRate), 1, {
      description:
        "The account's SES bounce rate reached 4% or its complaint rate 0.08% in this region; at 5% or 0.1% SES reviews the account and " +
        'may stop its sending (license e-mails): docs/deploy.md, "SES"',
    });
  }

  private add(id: string, name: string, metric: IMetric, threshold: number, options: { description: string }): void {
    const alarm = new Alarm(this, id, {
      alarmName: `${this.props.namePrefix}-${name}`,
      alarmDescription: options.description,
      metric,
      threshold,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      evaluationPeriods: 1,
      treatMissingData: TreatMissingData.NOT_BREACHING,
    });
    this.props.topic.notify(alarm);
    this.alarms.push(alarm);
  }
}
