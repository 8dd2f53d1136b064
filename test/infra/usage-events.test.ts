import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CfnElement, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { cdkApp } from './support/app.js';
import { expectWatchedByHealthCheck } from './support/health-check.js';
import { actionsOn, statementsOf } from './support/policies.js';
import { LicensingStack } from '../../infra/stack.js';
import { USAGE_QUEUE_SETTINGS } from '../../shared/insights/analytics/usage-queue.js';
import { leadingKeyPatterns } from '../../shared/platform/data/key-access.js';

const outdir = mkdtempSync(join(tmpdir(), 'usage-events-test-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

const stack = new LicensingStack(cdkApp(outdir), 'LicensingService', { bundle: false });
const template = Template.fromStack(stack);
const usage = stack.usageEvents;
const id = (s: Stack, construct: { node: { defaultChild?: unknown } }) => s.getLogicalId(construct.node.defaultChild as CfnElement);
const queueArn = { 'Fn::GetAtt': [id(stack, usage.queue), 'Arn'] };
const dlqArn = { 'Fn::GetAtt': [id(stack, usage.deadLetterQueue), 'Arn'] };
const environmentOf = (fn: { node: { defaultChild?: unknown } }) => template.toJSON().Resources[id(stack, fn)].Properties.Environment.Variables;

describe('usage event infrastructure', () => {
  it('has a usage queue that redrives to an encrypted dead-letter queue, hidden while a batch runs', () => {
    template.hasResourceProperties('AWS::SQS::Queue', {
      VisibilityTimeout: USAGE_QUEUE_SETTINGS.visibilityTimeoutSeconds,
      SqsManagedSseEnabled: true,
      RedrivePolicy: { deadLetterTargetArn: dlqArn, maxReceiveCount: USAGE_QUEUE_SETTINGS.maxReceiveCount },
    });
    // AWS advises six times the function's timeout for an SQS event source.
    expect(USAGE_QUEUE_SETTINGS.visibilityTimeoutSeconds).toBeGreaterThanOrEqual(6 * USAGE_QUEUE_SETTINGS.writerTimeoutSeconds);
  });

  it('feeds the writer batches of up to 100 gathered for a few seconds, with partial batch failures', () => {
    template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      EventSourceArn: queueArn,
      FunctionName: { Ref: id(stack, usage.writer) },
      BatchSize: 100,
      MaximumBatchingWindowInSeconds: USAGE_QUEUE_SETTINGS.maxBatchingWindowSeconds,
      FunctionResponseTypes: ['ReportBatchItemFailures'],
      ScalingConfig: { MaximumConcurrency: USAGE_QUEUE_SETTINGS.maxConcurrency },
    });
    expect(template.toJSON().Resources[id(stack, usage.writer)].Properties.Timeout).toBe(USAGE_QUEUE_SETTINGS.writerTimeoutSeconds);
  });

  it("gives the writer the product's events and counts, the licenses they name and the tenants' overviews, nothing else of the table", () => {
    const statements = statementsOf(stack, template, usage.writer).filter((s) => [s.Action].flat().some((a) => a.startsWith('dynamodb:')));
    expect(statements.map((statement) => statement.Condition)).toEqual([
      { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': leadingKeyPatterns('usageWriter', 'read') } },
      { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': leadingKeyPatterns('usageWriter', 'write') } },
    ]);
    expect(leadingKeyPatterns('usageWriter', 'read')).toEqual(['$licensing#productId_*', '$licensing#licenseKey_*', '$licensing#overview_*']);
    // It reads the licenses events name and the install sketches it merges into, and changes only the events, counts and overviews.
    expect(leadingKeyPatterns('usageWriter', 'write')).toEqual(['$licensing#productId_*#day_*', '$licensing#productRecords_*', '$licensing#overview_*']);
    expect(environmentOf(usage.writer)).toMatchObject({ TABLE_NAME: { Ref: id(stack, stack.table) }, RUNTIME: 'aws' });
    expect(environmentOf(usage.writer).USAGE_QUEUE_URL).toBeUndefined();
  });

  it('lets the public and edge functions queue (and only queue), only the writer take, no other function either', () => {
    for (const fn of [stack.functions.public, stack.functions.edge]) {
      const actions = actionsOn(statementsOf(stack, template, fn), queueArn);
      expect(actions).toContain('sqs:SendMessage');
      expect(actions).not.toContain('sqs:ReceiveMessage');
      expect(environmentOf(fn).USAGE_QUEUE_URL).toEqual({ Ref: id(stack, usage.queue) });
    }
    const writer = actionsOn(statementsOf(stack, template, usage.writer), queueArn);
    expect(writer).toEqual(expect.arrayContaining(['sqs:ReceiveMessage', 'sqs:DeleteMessage']));
    expect(writer).not.toContain('sqs:SendMessage');
    const others = Object.entries(stack.allFunctions).filter(([name]) => !['public', 'edge', 'usage-event-writer'].includes(name));
    for (const [name, fn] of others) expect([name, actionsOn(statementsOf(stack, template, fn), queueArn)]).toEqual([name, []]);
  });

  it('has the health check report the dead-letter queue as soon as it holds a message: its alarm, to the topic', () => {
    expectWatchedByHealthCheck(stack, template, usage.deadLetterQueue, usage.deadLetterAlarm, 'usage-event-dead-letters');
  });
});
