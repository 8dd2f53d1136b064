import { randomBytes } from 'node:crypto';
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
    /** The front door's secret that the gateway sends as CloudFront would: a function called without it refuses. */
    originVerifyToken: string;
    /** The S3 stand-in and the export bucket: a test runs the export worker's domain function itself. */
    s3Endpoint: string;
    exportBucket: string;
    /** The release bucket: the health check presigns a URL for it as the edge does. */
    releaseBucket: string;
  }
}

export default async function setup(project: TestProject) {
  // The Stripe API the functions talk to: a fake on this machine (test/support/fake-stripe.ts).
  const stripe = await startFakeStripe();
  // The dashboard the stack serves at `/` (dashboard-e2e and dashboard-serving tests), built once here, before any test
  // file runs, so that two files never build it at once.
  ensureDashboardBuilt();
  const originVerifyToken = randomBytes(24).toString('base64url');
  const stack = await startLocalStack({
    port: 0,
    dataDir: ':memory:',
    lightJvm: true,
    env: { DASHBOARD_URL, WEBHOOK_RETRY_SCALE: '0.0001', RATE_LIMIT_SCALE: '1000', STRIPE_API_URL: stripe.url, PASSWORD_HASH_COST: TEST_PASSWORD_HASH_COST },
    // As the default deployment: every request through the front door, which the functions insist on.
    originVerifyToken,
  });
  project.provide('baseUrl', stack.url);
  project.provide('dynamoEndpoint', process.env.DYNAMODB_ENDPOINT!);
  project.provide('tableName', process.env.TABLE_NAME!);
  project.provide('stripeUrl', stripe.url);
  project.provide('usageQueueUrl', process.env.USAGE_QUEUE_URL!);
  project.provide('sqsEndpoint', process.env.SQS_ENDPOINT!);
  project.provide('originVerifyToken', originVerifyToken);
  project.provide('s3Endpoint', process.env.S3_ENDPOINT!);
  project.provide('exportBucket', process.env.EXPORT_BUCKET_NAME!);
  project.provide('releaseBucket', process.env.BUCKET_NAME!);
  return async () => {
    await stack.stop();
    await stripe.close();
  };
}
