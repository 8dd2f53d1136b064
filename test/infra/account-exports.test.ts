import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CfnElement, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { cdkApp } from './support/app.js';
import { expectWatchedByHealthCheck } from './support/health-check.js';
import { actionsOn, statementsOf } from './support/policies.js';
import { LicensingStack } from '../../infra/stack.js';
import { EXPORT_RETENTION_DAYS } from '../../shared/portability/exports/export-jobs.js';
import { EXPORT_QUEUE_SETTINGS } from '../../shared/portability/exports/export-queue.js';

const outdir = mkdtempSync(join(tmpdir(), 'account-exports-test-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

const stack = new LicensingStack(cdkApp(outdir), 'LicensingService', { bundle: false });
const template = Template.fromStack(stack);
const exports = stack.accountExports;
const id = (s: Stack, construct: { node: { defaultChild?: unknown } }) => s.getLogicalId(construct.node.defaultChild as CfnElement);
const queueArn = { 'Fn::GetAtt': [id(stack, exports.queue), 'Arn'] };
const dlqArn = { 'Fn::GetAtt': [id(stack, exports.deadLetterQueue), 'Arn'] };
const bucketId = id(stack, exports.bucket);
const objects = { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/*']] };
const resourceOf = (construct: { node: { defaultChild?: unknown } }) => template.toJSON().Resources[id(stack, construct)];

describe('export infrastructure', () => {
  it('keeps export files in a private, encrypted, TLS-only bucket of their own for a week', () => {
    const bucket = resourceOf(exports.bucket);
    expect(bucket.Properties).toMatchObject({
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      BucketEncryption: { ServerSideEncryptionConfiguration: [{ ServerSideEncryptionByDefault: { SSEAlgorithm: 'AES256' } }] },
      LifecycleConfiguration: { Rules: expect.arrayContaining([{ Id: 'expire-exports', ExpirationInDays: EXPORT_RETENTION_DAYS, Status: 'Enabled' }]) },
      LoggingConfiguration: { DestinationBucketName: { Ref: id(stack, stack.releaseBucket.accessLogBucket) }, LogFilePrefix: 'exports/' },
    });
    expect([bucket.DeletionPolicy, bucket.UpdateReplacePolicy]).toEqual(['RetainExceptOnCreate', 'Retain']);
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: bucketId },
      PolicyDocument: { Statement: Match.arrayWith([Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } })]) },
    });
  });

  it('has an export queue that redrives to an encrypted dead-letter queue, hidden longer than the worker runs', () => {
    template.hasResourceProperties('AWS::SQS::Queue', {
      VisibilityTimeout: EXPORT_QUEUE_SETTINGS.visibilityTimeoutSeconds,
      SqsManagedSseEnabled: true,
      RedrivePolicy: { deadLetterTargetArn: dlqArn, maxReceiveCount: EXPORT_QUEUE_SETTINGS.maxReceiveCount },
    });
    expect(EXPORT_QUEUE_SETTINGS.visibilityTimeoutSeconds).toBeGreaterThan(EXPORT_QUEUE_SETTINGS.workerTimeoutSeconds);
  });

  it('feeds the worker one job a message, with partial batch failures, and gives it the table, the bucket and the queue', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: queueArn,
      FunctionName: { Ref: id(stack, exports.worker) },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    const worker = resourceOf(exports.worker).Properties;
    expect(worker.Timeout).toBe(EXPORT_QUEUE_SETTINGS.workerTimeoutSeconds);
    expect(worker.Environment.Variables).toMatchObject({
      TABLE_NAME: { Ref: id(stack, stack.table) },
      EXPORT_BUCKET_NAME: { Ref: bucketId },
      EXPORT_QUEUE_URL: { Ref: id(stack, exports.queue) },
      RUNTIME: 'aws',
    });
    const onObjects = actionsOn(statementsOf(stack, template, exports.worker), objects);
    expect(onObjects).toEqual(expect.arrayContaining(['s3:GetObject*', 's3:PutObject', 's3:DeleteObject*']));
  });

  it('lets management queue exports and read their files (to presign links), and write none; no other function touches either', () => {
    const management = stack.functions.management;
    expect(actionsOn(statementsOf(stack, template, management), queueArn)).toContain('sqs:SendMessage');
    expect(actionsOn(statementsOf(stack, template, management), queueArn)).not.toContain('sqs:ReceiveMessage');
    const onObjects = actionsOn(statementsOf(stack, template, management), objects);
    expect(onObjects).toContain('s3:GetObject*');
    expect(onObjects.filter((action) => /Put|Delete/.test(action))).toEqual([]);
    expect(resourceOf(management).Properties.Environment.Variables).toMatchObject({ EXPORT_BUCKET_NAME: { Ref: bucketId }, EXPORT_QUEUE_URL: { Ref: id(stack, exports.queue) } });
    const others = Object.entries(stack.allFunctions).filter(([name]) => !['management', 'export-worker'].includes(name));
    for (const [name, fn] of others) {
      expect([name, actionsOn(statementsOf(stack, template, fn), queueArn), actionsOn(statementsOf(stack, template, fn), objects)]).toEqual([name, [], []]);
    }
  });

  it('runs at most two workers at a time in the deployment: the event source never asks for more', () => {
    expect(EXPORT_QUEUE_SETTINGS.maxConcurrency).toBe(2);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', { EventSourceArn: queueArn, ScalingConfig: { MaximumConcurrency: 2 } });
  });

  it('has the health check report the dead-letter queue as soon as it holds a message: its alarm, to the topic', () => {
    expectWatchedByHealthCheck(stack, template, exports.deadLetterQueue, exports.deadLetterAlarm, 'export-dead-letters');
  });
});
