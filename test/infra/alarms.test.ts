import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { ALARM_THRESHOLDS } from '../../infra/constructs/alarms.js';
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
  it('all report to the topic when they go off and when they are OK again, and treat no data as OK', () => {
    // 2 API/edge + 2 per function + iterator age + purchases not issued + 2 SES + the webhook, outbox stream, mail and usage event dead-letter alarms
    // + the export and import dead-letter alarms.
    expect(alarms).toHaveLength(2 + 2 * Object.keys(stack.allFunctions).length + 1 + 1 + 2 + 4 + 2);
    for (const alarm of alarms) {
      expect(alarm.Properties.AlarmActions).toEqual([topicRef]);
      expect(alarm.Properties.OKActions).toEqual([topicRef]);
      expect(alarm.Properties.TreatMissingData).toBe('notBreaching');
      expect(alarm.Properties.AlarmName).toMatch(/^LicensingService-test-/);
    }
  });

  it('watch the API 5xx rate as metric math over 5xx and requests', () => {
    const alarm = alarmNamed('api-5xx-rate');
    expect(alarm).toMatchObject({ Threshold: ALARM_THRESHOLDS.serverErrorPercent, ComparisonOperator: 'GreaterThanThreshold', EvaluationPeriods: 1 });
    const [expression, ...inputs] = alarm.Metrics as { Id: string; Expression?: string; ReturnData?: boolean; MetricStat?: any }[];
    expect(expression).toMatchObject({ Expression: 'IF(requests > 0, 100 * errors / requests, 0)' });
    const metricOf = (id: string) => inputs.find((m) => m.Id === id)!.MetricStat;
    const apiDimension = [{ Name: 'ApiId', Value: { Ref: logicalIdOf(stack.api) } }];
    expect(metricOf('requests')).toMatchObject({ Metric: { Namespace: 'AWS/ApiGateway', MetricName: 'Count', Dimensions: apiDimension }, Stat: 'Sum', Period: 300 });
    expect(metricOf('errors')).toMatchObject({ Metric: { Namespace: 'AWS/ApiGateway', MetricName: '5xx', Dimensions: apiDimension }, Stat: 'Sum', Period: 300 });
  });

  it("watch the edge function's p99 duration over 15 minutes", () => {
    const alarm = alarmNamed('edge-duration-p99');
    expect(watched(alarm)).toEqual({
      Namespace: 'AWS/Lambda',
      MetricName: 'Duration',
      Stat: 'p99',
      Period: 300,
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: logicalIdOf(stack.functions.edge) } }],
    });
    expect(alarm).toMatchObject({ Threshold: ALARM_THRESHOLDS.edgeDurationP99Ms, EvaluationPeriods: 3 });
  });

  it('watch errors of every function', () => {
    for (const [name, fn] of Object.entries(stack.allFunctions)) {
      const alarm = alarmNamed(`${name}-errors`);
      expect(watched(alarm)).toEqual({
        Namespace: 'AWS/Lambda',
        MetricName: 'Errors',
        Stat: 'Sum',
        Period: 300,
        Dimensions: [{ Name: 'FunctionName', Value: { Ref: logicalIdOf(fn) } }],
      });
      expect(alarm).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold' });
    }
  });

  it('page on throttling only when it lasts: over 1% of attempts, at least 10, in each of three 5-minute periods', () => {
    for (const [name, fn] of Object.entries(stack.allFunctions)) {
      const alarm = alarmNamed(`${name}-throttles`);
      const metric = (id: string, metricName: string) =>
        expect.objectContaining({
          Id: id,
          ReturnData: false,
          MetricStat: { Metric: { Namespace: 'AWS/Lambda', MetricName: metricName, Dimensions: [{ Name: 'FunctionName', Value: { Ref: logicalIdOf(fn) } }] }, Period: 300, Stat: 'Sum' },
        });
      expect(alarm.Metrics).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ Expression: 'IF(throttles >= 10, 100 * throttles / (invocations + throttles), 0)' }),
          metric('invocations', 'Invocations'),
          metric('throttles', 'Throttles'),
        ]),
      );
      expect(alarm).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanThreshold', EvaluationPeriods: 3, TreatMissingData: 'notBreaching' });
    }
  });

  it("watch the webhook and outbox stream dead-letter queues and the fan-out's stream iterator age", () => {
    expect(watched(alarmNamed('webhook-dead-letters'))).toMatchObject({ Namespace: 'AWS/SQS', MetricName: 'ApproximateNumberOfMessagesVisible' });
    expect(watched(alarmNamed('outbox-stream-dead-letters'))).toMatchObject({
      Namespace: 'AWS/SQS',
      MetricName: 'ApproximateNumberOfMessagesVisible',
      Dimensions: [{ Name: 'QueueName', Value: { 'Fn::GetAtt': [logicalIdOf(stack.webhookDelivery.streamDeadLetterQueue), 'QueueName'] } }],
    });
    const iteratorAge = alarmNamed('webhook-stream-iterator-age');
    expect(watched(iteratorAge)).toEqual({
      Namespace: 'AWS/Lambda',
      MetricName: 'IteratorAge',
      Stat: 'Maximum',
      Period: 300,
      Dimensions: [{ Name: 'FunctionName', Value: { Ref: logicalIdOf(stack.webhookDelivery.fanOut) } }],
    });
    expect(iteratorAge.Threshold).toBe(ALARM_THRESHOLDS.streamIteratorAgeMs);
  });

  it('watch paid checkouts the Stripe webhook could not issue: the count its function writes, in the stack\'s namespace', () => {
    const alarm = alarmNamed('purchases-not-issued');
    expect(watched(alarm)).toEqual({
      Namespace: 'LicensingService-test',
      MetricName: 'PurchasesNotIssued',
      Stat: 'Sum',
      Period: 300,
      Dimensions: [{ Name: 'service', Value: 'stripeWebhook' }],
    });
    expect(alarm).toMatchObject({ Threshold: 1, ComparisonOperator: 'GreaterThanOrEqualToThreshold', EvaluationPeriods: 1 });
    // The dimension is the service name the function counts under.
    const variables = (template.toJSON().Resources[logicalIdOf(stack.functions.stripeWebhook)] as Resource).Properties.Environment.Variables;
    expect(variables).toMatchObject({ POWERTOOLS_SERVICE_NAME: 'stripeWebhook', POWERTOOLS_METRICS_NAMESPACE: 'LicensingService-test' });
  });

  it('watch the SES bounce and complaint rates of the account', () => {
    const bounces = alarmNamed('ses-bounce-rate');
    expect(watched(bounces)).toEqual({ Namespace: 'AWS/SES', MetricName: 'Reputation.BounceRate', Stat: 'Maximum', Period: 3600 });
    expect(bounces.Threshold).toBe(ALARM_THRESHOLDS.sesBounceRate);
    const complaints = alarmNamed('ses-complaint-rate');
    expect(watched(complaints)).toEqual({ Namespace: 'AWS/SES', MetricName: 'Reputation.ComplaintRate', Stat: 'Maximum', Period: 3600 });
    expect(complaints.Threshold).toBe(ALARM_THRESHOLDS.sesComplaintRate);
  });
});

describe('dashboard', () => {
  it('is named after the stack and draws the alarms and their metrics', () => {
    const [dashboard] = Object.values(template.findResources('AWS::CloudWatch::Dashboard')) as Resource[];
    expect(dashboard!.Properties.DashboardName).toBe('LicensingService-test');
    const body = JSON.stringify(dashboard!.Properties.DashboardBody);
    for (const text of ['Alarms', '5xx', 'Count', 'Latency', 'p99', 'Errors', 'Throttles', 'ApproximateNumberOfMessagesVisible', 'IteratorAge', 'Reputation.BounceRate']) {
      expect(body).toContain(text);
    }
    for (const alarm of [...stack.alarms.alarms, stack.webhookDelivery.deadLetterAlarm, stack.webhookDelivery.streamDeadLetterAlarm]) expect(body).toContain(logicalIdOf(alarm));
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
