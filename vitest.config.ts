import { defineConfig } from 'vitest/config';

/** As the local stack runs functions (infra/local/stack.ts): logs to the console, WARN and above, no metrics. */
const env = { POWERTOOLS_DEV: 'true', POWERTOOLS_LOG_LEVEL: 'WARN', POWERTOOLS_METRICS_DISABLED: 'true' };

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          // clients/js/test/unit: the JavaScript client against local servers that stall, fail or rate limit.
          include: ['test/unit/**/*.test.ts', 'test/infra/**/*.test.ts', 'clients/js/test/unit/**/*.test.ts'],
          env,
        },
      },
      {
        test: {
          name: 'integration',
          // clients/*/test/integration: the JavaScript and PHP clients against the same local stack.
          include: ['test/integration/**/*.test.ts', 'clients/js/test/integration/**/*.test.ts', 'clients/php/tests/*.test.ts'],
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
