import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Duration } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { concurrentRuns, SCHEDULED_EVENT_MAX_AGE } from '../../infra/constructs/scheduled-function.js';
import { logicalIdOf } from '../../infra/names.js';
import { LicensingStack } from '../../infra/stack.js';
import { cdkApp } from './support/app.js';

type Resource = { Type: string; Properties: Record<string, any> };

const outdir = mkdtempSync(join(tmpdir(), 'worker-concurrency-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

const stack = new LicensingStack(cdkApp(outdir), 'LicensingService-test', { bundle: false });
const resources = Template.fromStack(stack).toJSON().Resources as Record<string, Resource>;
const ofType = (type: string) => Object.values(resources).filter((resource) => resource.Type === type);

/** The functions no HTTP request runs: fed by a queue or a stream, or run by a schedule. */
const workers = Object.entries(stack.allFunctions).filter(([, fn]) => !Object.values(stack.functions).includes(fn));
const mappingsOf = (functionId: string) => ofType('AWS::Lambda::EventSourceMapping').filter((m) => m.Properties.FunctionName.Ref === functionId);
const rulesOf = (functionId: string) => ofType('AWS::Events::Rule').filter((rule) => rule.Properties.Targets.some((t: any) => t.Arn['Fn::GetAtt']?.[0] === functionId));
const isQueue = (mapping: Resource) => JSON.stringify(mapping.Properties.EventSourceArn).includes('Queue');

/** At most this many invocations of one worker at once: a new account runs 10 functions at once in all. */
const MOST_AT_ONCE = 3;

/** Seconds of a `rate(…)` schedule expression. */
function rateSeconds(expression: string): number {
  const [, amount, unit] = /^rate\((\d+) (minute|minutes|hour|hours)\)$/.exec(expression)!;
  return Number(amount) * (unit!.startsWith('minute') ? 60 : 3600);
}

describe('asynchronous workers', () => {
  it('are the queue, stream and scheduled functions, each run in exactly one of these ways', () => {
    expect(workers.map(([name]) => name).sort()).toEqual(
      ['expiry-sweep', 'export-worker', 'health-check', 'import-worker', 'lease-expiry', 'mail-sender', 'outbox-fanout', 'outbox-sweep', 'usage-event-writer', 'webhook-dispatcher'].sort(),
    );
    for (const [name, fn] of workers) {
      const id = logicalIdOf(fn);
      expect(mappingsOf(id).length + rulesOf(id).length, name).toBe(1);
    }
  });

  it('fed by a queue: the event source caps the invocations at once', () => {
    const fedByQueue = workers.filter(([, fn]) => mappingsOf(logicalIdOf(fn)).some(isQueue));
    expect(fedByQueue.map(([name]) => name).sort()).toEqual(['export-worker', 'import-worker', 'mail-sender', 'usage-event-writer', 'webhook-dispatcher']);
    for (const [name, fn] of fedByQueue) {
      const [mapping] = mappingsOf(logicalIdOf(fn));
      const cap = mapping!.Properties.ScalingConfig?.MaximumConcurrency;
      expect(cap, name).toBeGreaterThanOrEqual(2); // SQS's least
      expect(cap, name).toBeLessThanOrEqual(MOST_AT_ONCE);
    }
  });

  it('fed by the table stream: one batch at a time per shard, in order', () => {
    const [mapping, ...more] = mappingsOf(logicalIdOf(stack.webhookDelivery.fanOut));
    expect(more).toEqual([]);
    expect(isQueue(mapping!)).toBe(false);
    expect(mapping!.Properties.ParallelizationFactor).toBe(1);
  });

  it('run by a schedule: a run starts at most a minute late and ends within its timeout, below the rate, so at most two overlap', () => {
    const scheduled = workers.filter(([, fn]) => rulesOf(logicalIdOf(fn)).length);
    expect(scheduled.map(([name]) => name).sort()).toEqual(['expiry-sweep', 'health-check', 'lease-expiry', 'outbox-sweep']);
    for (const [name, fn] of scheduled) {
      const id = logicalIdOf(fn);
      const [rule] = rulesOf(id);
      const target = rule!.Properties.Targets[0];
      expect(target.RetryPolicy, name).toEqual({ MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: SCHEDULED_EVENT_MAX_AGE.toSeconds() });
      const invokeConfig = ofType('AWS::Lambda::EventInvokeConfig').find((config) => config.Properties.FunctionName.Ref === id);
      expect(invokeConfig?.Properties, name).toMatchObject({ MaximumRetryAttempts: 0, MaximumEventAgeInSeconds: SCHEDULED_EVENT_MAX_AGE.toSeconds() });
      const timeout = Duration.seconds(resources[id]!.Properties.Timeout);
      const rate = Duration.seconds(rateSeconds(rule!.Properties.ScheduleExpression));
      expect(timeout.toSeconds(), name).toBeLessThan(rate.toSeconds());
      expect(concurrentRuns(rate, timeout), name).toBeLessThanOrEqual(2);
    }
  });

  it("reserve no concurrency: a new account's limit of 10 leaves none to reserve (Lambda refuses the deploy), and the event sources cap the workers", () => {
    const reserving = Object.entries(resources).filter(([, resource]) => resource.Type === 'AWS::Lambda::Function' && resource.Properties.ReservedConcurrentExecutions !== undefined);
    expect(reserving.map(([id]) => id)).toEqual([]);
  });
});

describe('concurrentRuns', () => {
  it('counts the runs that can overlap: a minute late at most, then as long as the timeout', () => {
    expect(concurrentRuns(Duration.minutes(5), Duration.minutes(2))).toBe(1);
    expect(concurrentRuns(Duration.minutes(1), Duration.seconds(50))).toBe(2);
  });
});
