import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { ALARM_THRESHOLDS } from '../../infra/constructs/alarms.js';
import { METRICS_SERVICE } from '../../shared/platform/observability/metrics.js';
import { logicalIdOf } from '../../infra/names.js';
import { LicensingStack, type LicensingStackProps } from '../../infra/stack.js';
import { cdkApp } from './support/app.js';

type Resource = { Type: string; Properties: Record<string, any> };

const outRoot = mkdtempSync(join(tmpdir(), 'alarms-test-'));
afterAll(() => rmSync(outRoot, { recursive: true, force: true }));

function synth(props: LicensingStackProps = {}) {
  const stack = new LicensingStack(cdkApp(mkdtempSync(join(outRoot, 'app-'))), 'LicensingService-test', { bundle: false, ...props });
  return { stack, template: Template.fromStack(stack) };
}

const { stack, template } = synth({ alarmEmail: 'ops@example.com' });
// Synthesized here rather than in the tests, whose timeout a busy machine can exceed.
const withoutEmail = synth().template;
const emailFromSsm = synth({ alarmEmail: 'ssm:/licensing/alarm-email' }).template;
const apiOnly = synth({ dashboard: false }).template;
const topicRef = { Ref: logicalIdOf(stack.alarmTopic.topic) };
const alarms = Object.values(template.findResources('AWS::CloudWatch::Alarm')) as Resource[];
const alarmNamed = (name: string) => {
  const alarm = alarms.find((a) => a.Properties.AlarmName === `LicensingService-test-${name}`);
  expect(alarm, name).toBeDefined();
  return alarm!.Properties;
};

/** The one metric an alarm watches, whether the template states it flat or (with a label) as a one-metric query. */
function watched(alarm: Record<string, any>) {
  const [single, ...more] = (alarm.Metrics ?? []) as { MetricStat: { Metric: object; Stat: string; Period: number } }[];
  if (single && more.length === 0) return { ...single.MetricStat.Metric, Stat: single.MetricStat.Stat, Period: single.MetricStat.Period };
  return { Namespace: alarm.Namespace, MetricName: alarm.MetricName, Dimensions: alarm.Dimensions, Stat: alarm.Statistic ?? alarm.ExtendedStatistic, Period: alarm.Period };
}

describe('alarm topic', () => {
  it('is named after the stack, refuses plain HTTP, and e-mails the alarm address', () => {
    template.hasResourceProperties('AWS::SNS::Topic', { TopicName: 'LicensingService-test-alarms' });
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
  });

  it("lets this account's alarms publish, since the topic's own policy replaces SNS's default one", () => {
    template.hasResourceProperties('AWS::SNS::TopicPolicy', {
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Allow',
            Principal: { Service: 'cloudwatch.amazonaws.com' },
            Action: 'sns:Publish',
            Resource: topicRef,
            Condition: {
              StringEquals: { 'aws:SourceAccount': { Ref: 'AWS::AccountId' } },
              ArnLike: { 'aws:SourceArn': Match.objectLike({ 'Fn::Join': ['', Match.arrayWith([':cloudwatch:', ':alarm:*'])] }) },
            },
          }),
        ]),
      },
    });
    template.resourceCountIs('AWS::SNS::Subscription', 1);
    template.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'ops@example.com', TopicArn: topicRef });
  });

  it('exists without a subscription when no address is set', () => {
    withoutEmail.resourceCountIs('AWS::SNS::Topic', 1);
    withoutEmail.resourceCountIs('AWS::SNS::Subscription', 0);
  });

  it('takes the address from SSM at deployment for ssm:', () => {
    const [subscription] = Object.values(emailFromSsm.findResources('AWS::SNS::Subscription')) as Resource[];
    const parameter = subscription!.Properties.Endpoint.Ref as string;
    expect(emailFromSsm.toJSON().Parameters[parameter]).toEqual({ Type: 'AWS::SSM::Parameter::Value<String>', Default: '/licensing/alarm-email' });
  });
});

describe('alarms', () => {
  it('are few, each on one or two metrics, all report to the topic when they go off and when they are OK again', () => {
    expect(alarms.map((alarm) => alarm.Properties.AlarmName).sort()).toEqual(
      ['api-5xx', 'front-door-refusals', 'health-check', 'ses-reputation', 'worker-failures'].map((name) => `LicensingService-test-${name}`),
    );
    for (const alarm of alarms) {
      expect(alarm.Properties.AlarmActions).toEqual([topicRef]);
      expect(alarm.Properties.OKActions).toEqual([topicRef]);
    }
    // No period without data is a fault, but the health check's: one without a run is a check that did not happen.
    expect(alarms.filter((alarm) => alarm.Properties.TreatMissingData !== 'notBreaching').map((alarm) => alarm.Properties.AlarmName)).toEqual([
      'LicensingService-test-health-check',
    ]);
  });

  it('watch any 5xx the HTTP API answers', () => {
    const alarm = alarmNamed('api-5xx');
    expect(watched(alarm)).toEqual({ Namespace: 'AWS/ApiGateway', MetricName: '5xx', Stat: 'Sum', Period: 300, Dimensions: [{ Name: 'ApiId', Value: { Ref: logicalIdOf(stack.api) } }] });
    expect(alarm).toMatchObject({ Threshold: ALARM_THRESHOLDS.serverErrors, ComparisonOperator: 'GreaterThanOrEqualToThreshold', EvaluationPeriods: 1 });
    // A paid checkout the Stripe webhook could not issue is one of them: the alarm says where to look.
    expect(alarm.AlarmDescription).toContain('Paid checkout not issued');
  });

  it('watch the health check: two failed or missing runs of the last three', () => {
    const alarm = alarmNamed('health-check');
    expect(watched(alarm)).toEqual({
      Namespace: 'AWS/Lambda',
      MetricName: 'Errors',
      Stat: 'Sum',
      Period: 300,
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: logicalIdOf(stack.healthCheck.function) } }],
    });
    expect(alarm).toMatchObject({ Threshold: 1, EvaluationPeriods: 3, DatapointsToAlarm: 2, TreatMissingData: 'breaching' });
    // It is the alarm of every dead-letter queue (the check looks at each: test/integration/platform/health-check.test.ts).
    for (const queueAlarm of [stack.webhookDelivery.deadLetterAlarm, stack.webhookDelivery.streamDeadLetterAlarm, stack.mailDelivery.deadLetterAlarm, stack.usageEvents.deadLetterAlarm, stack.accountExports.deadLetterAlarm, stack.accountImports.deadLetterAlarm]) {
      expect(queueAlarm).toBe(stack.healthCheck.alarm);
    }
  });

  it('watch the counts the functions write, each one series in the stack’s namespace: refusals around the front door, failed workers', () => {
    for (const [name, metric, threshold] of [['front-door-refusals', 'FrontDoorRefusals', ALARM_THRESHOLDS.frontDoorRefusals], ['worker-failures', 'WorkerFailures', ALARM_THRESHOLDS.workerFailures]] as const) {
      const alarm = alarmNamed(name);
      expect(watched(alarm)).toEqual({ Namespace: 'LicensingService-test', MetricName: metric, Stat: 'Sum', Period: 300, Dimensions: [{ Name: 'service', Value: METRICS_SERVICE }] });
      expect(alarm).toMatchObject({ Threshold: threshold, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    }
    const variables = (template.toJSON().Resources[logicalIdOf(stack.functions.edge)] as Resource).Properties.Environment.Variables;
    expect(variables).toMatchObject({ POWERTOOLS_METRICS_NAMESPACE: 'LicensingService-test' });
    // Without a front door nothing is refused for lacking its secret.
    expect((Object.values(apiOnly.findResources('AWS::CloudWatch::Alarm')) as Resource[]).map((alarm) => alarm.Properties.AlarmName)).not.toContain('LicensingService-test-front-door-refusals');
  });

  it('watch the SES bounce and complaint rates of the account in one alarm, each against its own limit', () => {
    const alarm = alarmNamed('ses-reputation');
    const [expression, ...inputs] = alarm.Metrics as { Id: string; Expression?: string; MetricStat?: any }[];
    expect(expression).toMatchObject({ Expression: `MAX([bounces / ${ALARM_THRESHOLDS.sesBounceRate}, complaints / ${ALARM_THRESHOLDS.sesComplaintRate}])` });
    expect(inputs.map((input) => [input.Id, input.MetricStat])).toEqual([
      ['bounces', { Metric: { Namespace: 'AWS/SES', MetricName: 'Reputation.BounceRate' }, Stat: 'Maximum', Period: 3600 }],
      ['complaints', { Metric: { Namespace: 'AWS/SES', MetricName: 'Reputation.ComplaintRate' }, Stat: 'Maximum', Period: 3600 }],
    ]);
    expect(alarm.Threshold).toBe(1);
  });
});

describe('dashboard', () => {
  it('is named after the stack and its region and draws the alarms and their metrics', () => {
    const [dashboard] = Object.values(template.findResources('AWS::CloudWatch::Dashboard')) as Resource[];
    expect(dashboard!.Properties.DashboardName).toEqual({ 'Fn::Join': ['', ['LicensingService-test-', { Ref: 'AWS::Region' }]] });
    const body = JSON.stringify(dashboard!.Properties.DashboardBody);
    for (const text of ['Alarms', '5xx', 'Count', 'Latency', 'p99', 'Errors', 'Throttles', 'ApproximateNumberOfMessagesVisible', 'IteratorAge', 'Reputation.BounceRate', '5xxErrorRate', 'FrontDoorRefusals']) {
      expect(body).toContain(text);
    }
    for (const alarm of [...stack.alarms.alarms, stack.healthCheck.alarm]) expect(body).toContain(logicalIdOf(alarm));
  });
});

describe('API access log', () => {
  // Its format, line by line: test/infra/access-logs.test.ts.
  it('writes to a log group kept a month', () => {
    const logGroupId = logicalIdOf(stack.accessLogs.logGroup);
    template.hasResourceProperties('AWS::Logs::LogGroup', { RetentionInDays: 30 });
    const [stage] = Object.values(template.findResources('AWS::ApiGatewayV2::Stage')) as Resource[];
    expect(stage!.Properties.AccessLogSettings.DestinationArn).toEqual({ 'Fn::GetAtt': [logGroupId, 'Arn'] });
  });
});

describe('Powertools', () => {
  it('gives every function its service name and the stack as metrics namespace', () => {
    for (const [name, fn] of Object.entries(stack.allFunctions)) {
      const variables = (template.toJSON().Resources[logicalIdOf(fn)] as Resource).Properties.Environment.Variables;
      expect(variables).toMatchObject({ POWERTOOLS_SERVICE_NAME: name, POWERTOOLS_METRICS_NAMESPACE: 'LicensingService-test' });
    }
  });
});
