import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MAXIMUM_RETRY_DELAY, Retry } from '@smithy/core/retry';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { afterAll, describe, expect, it } from 'vitest';
import { LicensingStack } from '../../infra/stack.js';
import { AWS_CALL_LIMITS, awsClientOptions } from '../../shared/platform/clients.js';
import { loadConfig } from '../../shared/platform/config.js';
import { STRIPE_CALL_LIMITS, stripeClients } from '../../shared/billing/payments/stripe-client.js';
import { cdkApp } from './support/app.js';

const outdir = mkdtempSync(join(tmpdir(), 'request-budgets-test-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));
const stack = new LicensingStack(cdkApp(outdir), 'LicensingService', { bundle: false });

/** "Well under": a call that hangs to its last retry leaves a third of the function's time for the rest of the request. */
const SHARE_OF_TIMEOUT = 2 / 3;

/**
 * The longest an AWS call can take: every attempt cut off at the request timeout, and between attempts the SDK's
 * longest pause, its throttling backoff (the ceiling of `StandardRetryStrategy`: base × 2^retry, capped).
 */
const awsWorstCaseMs = () => {
  const pauses = Array.from({ length: AWS_CALL_LIMITS.maxAttempts - 1 }, (_, retry) => Math.min(Retry.throttlingDelay() * 2 ** retry, MAXIMUM_RETRY_DELAY));
  return AWS_CALL_LIMITS.maxAttempts * AWS_CALL_LIMITS.requestTimeoutMs + pauses.reduce((sum, pause) => sum + pause, 0);
};

describe('calls to dependencies, against the functions\u2019 timeouts', () => {
  const config = loadConfig({ TABLE_NAME: 'table', RUNTIME: 'aws' });

  it('builds AWS clients with the attempts that are budgeted (test/unit/platform/storage-failure.test.ts shows each cut off)', () => {
    expect(awsClientOptions(config, undefined).maxAttempts).toBe(AWS_CALL_LIMITS.maxAttempts);
    expect(AWS_CALL_LIMITS.connectionTimeoutMs).toBeLessThanOrEqual(AWS_CALL_LIMITS.requestTimeoutMs);
  });

  it('builds Stripe clients with the limits that are budgeted', async () => {
    const stripe = await stripeClients(config)('sk_test_budget');
    expect([stripe.getMaxNetworkRetries(), stripe.getApiField('timeout')]).toEqual([STRIPE_CALL_LIMITS.maxNetworkRetries, STRIPE_CALL_LIMITS.timeoutMs]);
  });

  it('keeps the worst AWS call and the worst Stripe call well within every function\u2019s timeout', async () => {
    const stripe = await stripeClients(config)('sk_test_budget');
    // Stripe pauses before a retry at most its maximum delay, or its initial one when that is larger.
    const stripePauseMs = Math.max(stripe.getInitialNetworkRetryDelay(), Math.min(stripe.getInitialNetworkRetryDelay() * 2 ** (STRIPE_CALL_LIMITS.maxNetworkRetries - 1), stripe.getMaxNetworkRetryDelay())) * 1000;
    const stripeWorstCaseMs = (STRIPE_CALL_LIMITS.maxNetworkRetries + 1) * STRIPE_CALL_LIMITS.timeoutMs + STRIPE_CALL_LIMITS.maxNetworkRetries * stripePauseMs;
    const functions = Object.entries(stack.allFunctions) as [string, LambdaFunction][];
    expect(functions.length).toBeGreaterThanOrEqual(11);
    const overBudget = functions.flatMap(([name, fn]) => {
      const timeoutMs = fn.timeout!.toMilliseconds();
      const budget = timeoutMs * SHARE_OF_TIMEOUT;
      return [
        ...(awsWorstCaseMs() > budget ? [`${name}: an AWS call may take ${awsWorstCaseMs()} ms of its ${timeoutMs} ms`] : []),
        ...(stripeWorstCaseMs > budget ? [`${name}: a Stripe call may take ${stripeWorstCaseMs} ms of its ${timeoutMs} ms`] : []),
      ];
    });
    expect(overBudget).toEqual([]);
  });
});
