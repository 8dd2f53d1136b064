import type { TestProject } from 'vitest/node';
import { startLocalStack } from '../../infra/local/stack.js';

export const DASHBOARD_URL = 'http://dashboard.test';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    dynamoEndpoint: string;
    tableName: string;
  }
}

export default async function setup(project: TestProject) {
  const stack = await startLocalStack({ port: 0, dataDir: ':memory:', env: { DASHBOARD_URL, WEBHOOK_RETRY_SCALE: '0.0001', RATE_LIMIT_SCALE: '1000' } });
  project.provide('baseUrl', stack.url);
  project.provide('dynamoEndpoint', process.env.DYNAMODB_ENDPOINT!);
  project.provide('tableName', process.env.TABLE_NAME!);
  return () => stack.stop();
}
