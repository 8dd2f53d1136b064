import type { TestProject } from 'vitest/node';
import { ensureDashboardBuilt } from '../../infra/dashboard-build.js';
import { startLocalStack } from '../../infra/local/stack.js';
import { startFakeStripe } from './fake-stripe.js';

export const DASHBOARD_URL = 'http://dashboard.test';
/**
 * The scrypt cost of the tests' stacks: every test registers an account of its own, and at the production cost
 * (2^17, about 0.3 s of CPU each) hashing was a fifth of the suite's time. Hashes still verify by the cost stored in them.
 */
export const TEST_PASSWORD_HASH_COST = '10';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dynamoEndpoint: string;
    tableName: string;
    stripeUrl: string;
    /** The stack's usage queue and its SQS endpoint: a test's own public handler queues events the stack's writer stores. */
    usageQueueUrl: string;
    sqsEndpoint: string;
  }
}

export default async function setup(project: TestProject) {
  // The Stripe API the functions talk to: a fake on this machine (test/support/fake-stripe.ts).
  const stripe = await startFakeStripe();
  // The dashboard the stack serves at `/` (dashboard-e2e and dashboard-serving tests), built once here, before any test
  // file runs, so that two files never build it at once.
  ensureDashboardBuilt();
  const stack = await startLocalStack({
    port: 0,
    dataDir: ':memory:',
    env: { DASHBOARD_URL, WEBHOOK_RETRY_SCALE: '0.0001', RATE_LIMIT_SCALE: '1000', STRIPE_API_URL: stripe.url, PASSWORD_HASH_COST: TEST_PASSWORD_HASH_COST },
  });
  project.provide('baseUrl', stack.url);
  project.provide('dynamoEndpoint', process.env.DYNAMODB_ENDPOINT!);
  project.provide('tableName', process.env.TABLE_NAME!);
  project.provide('stripeUrl', stripe.url);
  project.provide('usageQueueUrl', process.env.USAGE_QUEUE_URL!);
  project.provide('sqsEndpoint', process.env.SQS_ENDPOINT!);
  return async () => {
    await stack.stop();
    await stripe.close();
  };
}
