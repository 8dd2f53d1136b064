import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CfnElement, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { cdkApp } from './support/app.js';
import { expectWatchedByHealthCheck } from './support/health-check.js';
import { actionsOn, statementsOf as policyStatements } from './support/policies.js';
import { Match } from 'aws-cdk-lib/assertions';
import { OUTBOX_STREAM_SETTINGS } from '../../functions/outbox-fanout/stream-settings.js';
import { LicensingStack } from '../../infra/stack.js';
import { DELIVERY_QUEUE_SETTINGS } from '../../shared/messaging/webhooks/delivery-queue.js';

const outdir = mkdtempSync(join(tmpdir(), 'webhook-delivery-test-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

const stack = new LicensingStack(cdkApp(outdir), 'LicensingService', { bundle: false });
const template = Template.fromStack(stack);
const delivery = stack.webhookDelivery;
const id = (s: Stack, construct: { node: { defaultChild?: unknown } }) => s.getLogicalId(construct.node.defaultChild as CfnElement);
const queueId = id(stack, delivery.queue);
const dlqId = id(stack, delivery.deadLetterQueue);
const streamDlqId = id(stack, delivery.streamDeadLetterQueue);
const sweepId = id(stack, delivery.sweep.function);
const tableId = id(stack, stack.table);

const statementsOf = (fn: { role?: unknown }) => policyStatements(stack, template, fn);
const queueArn = { 'Fn::GetAtt': [queueId, 'Arn'] };
const dlqArn = { 'Fn::GetAtt': [dlqId, 'Arn'] };
const streamDlqArn = { 'Fn::GetAtt': [streamDlqId, 'Arn'] };

describe('webhook delivery infrastructure', () => {
  it('has a delivery queue that redrives to an encrypted dead-letter queue', () => {
    template.hasResourceProperties('AWS::SQS::Queue', {
      VisibilityTimeout: DELIVERY_QUEUE_SETTINGS.visibilityTimeoutSeconds,
      MessageRetentionPeriod: 4 * 24 * 3600,
      SqsManagedSseEnabled: true,
      RedrivePolicy: { deadLetterTargetArn: dlqArn, maxReceiveCount: DELIVERY_QUEUE_SETTINGS.maxReceiveCount },
    });
    template.hasResourceProperties('AWS::SQS::Queue', { MessageRetentionPeriod: 14 * 24 * 3600, SqsManagedSseEnabled: true });
  });

  it('feeds the dispatcher from the queue in batches, reporting partial failures', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: queueArn,
      FunctionName: { Ref: id(stack, delivery.dispatcher) },
      BatchSize: DELIVERY_QUEUE_SETTINGS.batchSize,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      // A few dispatchers at most, so a burst of webhooks leaves a new account's 10 concurrent functions to the API.
      ScalingConfig: { MaximumConcurrency: DELIVERY_QUEUE_SETTINGS.maxConcurrency },
    });
    const fn = template.toJSON().Resources[id(stack, delivery.dispatcher)];
    expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], Timeout: DELIVERY_QUEUE_SETTINGS.dispatcherTimeoutSeconds });
    expect(fn.Properties.Timeout).toBeLessThan(DELIVERY_QUEUE_SETTINGS.visibilityTimeoutSeconds);
    expect(fn.Properties.Environment.Variables).toMatchObject({
      RUNTIME: 'aws',
      TABLE_NAME: { Ref: tableId },
      QUEUE_URL: { Ref: queueId },
      DEAD_LETTER_QUEUE_URL: { Ref: dlqId },
    });
  });

  it('feeds the fan-out with outbox inserts (events and queued e-mails) and audit entries to link, only from the table stream', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: { 'Fn::GetAtt': [tableId, 'StreamArn'] },
      FunctionName: { Ref: id(stack, delivery.fanOut) },
      StartingPosition: 'TRIM_HORIZON',
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      FilterCriteria: {
        Filters: [
          { Pattern: JSON.stringify({ eventName: ['INSERT'], dynamodb: { NewImage: { __edb_e__: { S: ['outboxEvent', 'licenseMail', 'mail'] } } } }) },
          { Pattern: JSON.stringify({ eventName: ['INSERT'], dynamodb: { NewImage: { __edb_e__: { S: ['auditEntry'] } } } }) },
        ],
      },
    });
    const fn = template.toJSON().Resources[id(stack, delivery.fanOut)];
    expect(fn.Properties.Environment.Variables).toMatchObject({ TABLE_NAME: { Ref: tableId }, QUEUE_URL: { Ref: queueId } });
  });

  it('gives a failing stream record up soon, halving batches to find it, with its metadata in a dead-letter queue of its own', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: { Ref: id(stack, delivery.fanOut) },
      BisectBatchOnFunctionError: true,
      MaximumRetryAttempts: 10,
      MaximumRecordAgeInSeconds: OUTBOX_STREAM_SETTINGS.maxRecordAgeSeconds,
      DestinationConfig: { OnFailure: { Destination: streamDlqArn } },
    });
    // Under the stream's 24 h, so a record is given up (and described) before the stream drops it unseen.
    expect(OUTBOX_STREAM_SETTINGS.maxRecordAgeSeconds).toBeLessThan(24 * 3600);
    template.hasResourceProperties('AWS::SQS::Queue', { MessageRetentionPeriod: 14 * 24 * 3600, SqsManagedSseEnabled: true });
    expect(template.toJSON().Resources[streamDlqId].Type).toBe('AWS::SQS::Queue');
    expect(actionsOn(statementsOf(delivery.fanOut), streamDlqArn)).toContain('sqs:SendMessage');
    expectWatchedByHealthCheck(stack, template, delivery.streamDeadLetterQueue, delivery.streamDeadLetterAlarm, 'outbox-stream-dead-letters');
  });

  it('runs the outbox sweep every 5 minutes, retried by neither EventBridge nor Lambda, with the delivery and mail queues to send to', () => {
    template.hasResourceProperties('AWS::Events::Rule', {
      ScheduleExpression: 'rate(5 minutes)',
      Targets: [Match.objectLike({ Arn: { 'Fn::GetAtt': [sweepId, 'Arn'] }, RetryPolicy: { MaximumRetryAttempts: 0 } })],
    });
    template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', { FunctionName: { Ref: sweepId }, MaximumRetryAttempts: 0 });
    const fn = template.toJSON().Resources[sweepId];
    expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], Timeout: 120 });
    expect(fn.Properties.Environment.Variables).toMatchObject({ TABLE_NAME: { Ref: tableId }, QUEUE_URL: { Ref: queueId }, MAIL_QUEUE_URL: expect.anything() });
    const sweep = statementsOf(delivery.sweep.function);
    expect(actionsOn(sweep, queueArn)).toContain('sqs:SendMessage');
    expect(actionsOn(sweep, queueArn)).not.toContain('sqs:ReceiveMessage');
    expect(actionsOn(sweep, dlqArn)).toEqual([]);
    expect(actionsOn(sweep, streamDlqArn)).toEqual([]);
  });

  it('grants each function only what it uses of the queues', () => {
    const dispatcher = statementsOf(delivery.dispatcher);
    expect(actionsOn(dispatcher, queueArn)).toEqual(
      expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:ChangeMessageVisibility', 'sqs:DeleteMessage']),
    );
    expect(actionsOn(dispatcher, queueArn)).not.toContain('sqs:SendMessage');
    expect(actionsOn(dispatcher, dlqArn)).toContain('sqs:SendMessage');
    expect(actionsOn(dispatcher, dlqArn)).not.toContain('sqs:ReceiveMessage');

    const fanOut = statementsOf(delivery.fanOut);
    expect(actionsOn(fanOut, queueArn)).toContain('sqs:SendMessage');
    expect(actionsOn(fanOut, queueArn)).not.toContain('sqs:ReceiveMessage');
    expect(actionsOn(fanOut, { 'Fn::GetAtt': [tableId, 'StreamArn'] })).toEqual(expect.arrayContaining(['dynamodb:GetRecords', 'dynamodb:GetShardIterator']));

    const management = statementsOf(stack.functions.management);
    expect(actionsOn(management, queueArn)).toContain('sqs:SendMessage');
    expect(actionsOn(management, queueArn)).not.toContain('sqs:ReceiveMessage');
    expect(actionsOn(management, dlqArn)).toEqual([]);
    for (const statements of [dispatcher, fanOut, management]) {
      expect(statements.flatMap((s) => [s.Action].flat())).not.toContain('sqs:*');
    }
  });

  it('gives the management function the queue address for redeliveries', () => {
    const fn = template.toJSON().Resources[id(stack, stack.functions.management)];
    expect(fn.Properties.Environment.Variables.QUEUE_URL).toEqual({ Ref: queueId });
  });

  it('has the health check report the dead-letter queue as soon as it holds a message: its alarm, to the topic', () => {
    expectWatchedByHealthCheck(stack, template, delivery.deadLetterQueue, delivery.deadLetterAlarm, 'webhook-dead-letters');
  });

  it('keeps the queues private to TLS callers', () => {
    const policies = Object.values(template.findResources('AWS::SQS::QueuePolicy')) as { Properties: { PolicyDocument: { Statement: unknown[] } } }[];
    // The webhook, mail, usage event, export and import queues and their dead-letter queues, and the outbox stream's dead-letter queue.
    expect(policies).toHaveLength(11);
    for (const policy of policies) {
      expect(policy.Properties.PolicyDocument.Statement).toContainEqual(
        expect.objectContaining({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
      );
    }
  });
});
