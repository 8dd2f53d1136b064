import { defineConfig } from 'vitest/config';

/** As the local stack runs functions (infra/local/stack.ts): logs to the console, WARN and above, no metrics. */
const env = { POWERTOOLS_DEV: 'true', POWERTOOLS_LOG_LEVEL: 'WARN', POWERTOOLS_METRICS_DISABLED: 'true' };

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts', 'test/infra/**/*.test.ts'],
          env,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['test/integration/**/*.test.ts'],
          env,
          // One local stack (DynamoDB Local, S3/SES stand-ins, gateway) for the whole run; each test makes its own tenant.
          globalSetup: ['test/support/global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
    ],
  },
});
