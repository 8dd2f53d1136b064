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
import { MAX_RETRY_DELAY_MS, STALL_MS } from '../../shared/portability/imports/import-ends.js';
import { IMPORT_QUEUE_SETTINGS } from '../../shared/portability/imports/import-queue.js';

const outdir = mkdtempSync(join(tmpdir(), 'account-imports-test-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

const stack = new LicensingStack(cdkApp(outdir), 'LicensingService', { bundle: false });
const template = Template.fromStack(stack);
const imports = stack.accountImports;
const id = (s: Stack, construct: { node: { defaultChild?: unknown } }) => s.getLogicalId(construct.node.defaultChild as CfnElement);
const queueArn = { 'Fn::GetAtt': [id(stack, imports.queue), 'Arn'] };
const dlqArn = { 'Fn::GetAtt': [id(stack, imports.deadLetterQueue), 'Arn'] };
const bucketId = id(stack, stack.releaseBucket.bucket);
const resourceOf = (fn: { node: { defaultChild?: unknown } }) => template.toJSON().Resources[id(stack, fn)].Properties;

describe('import infrastructure', () => {
  it('has an import queue that redrives to an encrypted dead-letter queue, hidden six times the worker\'s timeout', () => {
    template.hasResourceProperties('AWS::SQS::Queue', {
      VisibilityTimeout: IMPORT_QUEUE_SETTINGS.visibilityTimeoutSeconds,
      SqsManagedSseEnabled: true,
      RedrivePolicy: { deadLetterTargetArn: dlqArn, maxReceiveCount: IMPORT_QUEUE_SETTINGS.maxReceiveCount },
    });
    expect(IMPORT_QUEUE_SETTINGS.visibilityTimeoutSeconds).toBeGreaterThanOrEqual(6 * IMPORT_QUEUE_SETTINGS.workerTimeoutSeconds);
    // The worker hands over before its timeout.
    expect(IMPORT_QUEUE_SETTINGS.handOverSeconds).toBeLessThan(IMPORT_QUEUE_SETTINGS.workerTimeoutSeconds);
    // A crashed run's message comes back, and goes on, before the import counts as stalled (DECISIONS §20).
    expect(IMPORT_QUEUE_SETTINGS.visibilityTimeoutSeconds * 1000).toBeLessThanOrEqual(MAX_RETRY_DELAY_MS);
    expect(MAX_RETRY_DELAY_MS).toBeLessThan(STALL_MS);
  });

  it('runs at most two workers at a time in the deployment: the event source never asks for more', () => {
    expect(IMPORT_QUEUE_SETTINGS.maxConcurrency).toBe(2);
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', { EventSourceArn: queueArn, ScalingConfig: { MaximumConcurrency: 2 } });
  });

  it('feeds the worker one import a message, with partial batch failures, under its timeout', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: queueArn,
      FunctionName: { Ref: id(stack, imports.worker) },
      BatchSize: 1,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
    });
    expect(resourceOf(imports.worker).Timeout).toBe(IMPORT_QUEUE_SETTINGS.workerTimeoutSeconds);
    expect(resourceOf(imports.worker).Environment.Variables).toMatchObject({
      TABLE_NAME: { Ref: id(stack, stack.table) },
      BUCKET_NAME: { Ref: bucketId },
      IMPORT_QUEUE_URL: { Ref: id(stack, imports.queue) },
      RUNTIME: 'aws',
    });
  });

  it('lets the management function and the worker (handing over) queue imports, only the worker take them, no other function either', () => {
    for (const fn of [stack.functions.management, imports.worker]) {
      expect(actionsOn(statementsOf(stack, template, fn), queueArn)).toContain('sqs:SendMessage');
    }
    expect(resourceOf(stack.functions.management).Environment.Variables.IMPORT_QUEUE_URL).toEqual({ Ref: id(stack, imports.queue) });
    const worker = actionsOn(statementsOf(stack, template, imports.worker), queueArn);
    expect(worker).toEqual(expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage']));
    expect(actionsOn(statementsOf(stack, template, stack.functions.management), queueArn)).not.toContain('sqs:ReceiveMessage');
    const others = Object.entries(stack.allFunctions).filter(([name]) => !['management', 'import-worker'].includes(name));
    for (const [name, fn] of others) expect([name, actionsOn(statementsOf(stack, template, fn), queueArn)]).toEqual([name, []]);
  });

  it('lets the worker read import files and write their prepared rows under imports/, nothing else of the bucket', () => {
    const objects = { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/*']] };
    const actions = actionsOn(statementsOf(stack, template, imports.worker), objects);
    expect(actions).toEqual(expect.arrayContaining(['s3:GetObject*']));
    expect(actions.filter((action) => /Put|Delete/.test(action))).toEqual([]);
    const importFiles = { 'Fn::Join': ['', [{ 'Fn::GetAtt': [bucketId, 'Arn'] }, '/imports/*']] };
    const writes = statementsOf(stack, template, imports.worker).filter((statement) => [statement.Action].flat().some((action) => /^s3:(Put|Delete)/.test(action)));
    expect(writes.map((statement) => statement.Resource)).toEqual([importFiles]);
    expect(writes.flatMap((statement) => [statement.Action].flat()).filter((action) => /^s3:Delete/.test(action))).toEqual([]);
  });

  it('expires import files after a week', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: {
        Rules: Match.arrayWith([{ Id: 'expire-import-files', Prefix: 'imports/', ExpirationInDays: IMPORT_QUEUE_SETTINGS.fileRetentionDays, Status: 'Enabled' }]),
      },
    });
  });

  it('has the health check report the dead-letter queue as soon as it holds a message: its alarm, to the topic', () => {
    expectWatchedByHealthCheck(stack, template, imports.deadLetterQueue, imports.deadLetterAlarm, 'import-dead-letters');
  });
});
