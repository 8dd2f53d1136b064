import { defineConfig } from 'vitest/config';

/** As the local stack runs functions (infra/local/stack.ts): logs to the console, WARN and above, no metrics. */
const env = { POWERTOOLS_DEV: 'true', POWERTOOLS_LOG_LEVEL: 'WARN', POWERTOOLS_METRICS_DISABLED: 'true' };

/** Test files that start a stack or a service process of their own (which sets the process's environment). */
const OWN_STACK_FILES = [
  'test/integration/messaging/webhooks-restart.test.ts',
  'test/integration/portability/imports-table.test.ts',
  'test/integration/billing/checkout-deadline.test.ts',
  'test/integration/platform/upgrade-rehearsal.test.ts',
];

/**
 * Tests too slow for `npm test` (which must stay within 8 minutes on CI's two cores), run by `npm run test:slow` (and
 * `.ci/run`): the stack bundled as `cdk deploy` builds it (esbuild for every function and Vite for the dashboard,
 * twice), the malformed-input sweep (over 3,000 requests to every route, on a stack of its own), and three files that
 * each start a whole stack of their own and run it for a minute: the smoke test, the rate limits at scale 1, and the
 * webhook deliveries across a crashed dispatcher.
 */
const SLOW_FILES = [
  'test/infra/bundling.test.ts',
  'test/integration/platform/malformed-input.test.ts',
  'test/integration/platform/smoke.test.ts',
  'test/integration/platform/rate-limits.test.ts',
  'test/integration/messaging/webhooks-crash.test.ts',
];

/**
 * The dashboard and the hosted customer portal driven in Chromium, and /docs rendered in it: each file runs a browser beside the stack, about a third
 * of the integration tests' time. Run by `npm run test:browser` (and `.ci/run`) on the same shared stack, so that
 * `npm test` stays within 8 minutes on two cores. test/integration/dashboard/dashboard-serving.test.ts asks over HTTP
 * only, and stays in `npm test`.
 */
const BROWSER_FILES = [
  'test/integration/dashboard/dashboard-!(serving).test.ts',
  'test/integration/platform/docs-page.test.ts',
  'test/integration/portal/hosted-portal-browser.test.ts',
];

/**
 * The permission and isolation matrices: every management route as every role, and as another tenant's admin, over
 * HTTP (some 3,000 requests, growing with each route). Run by `npm run test:matrices` (and `.ci/run`) on a shared stack
 * of their own, so that `npm test` stays within 8 minutes on two cores.
 */
const MATRIX_FILES = ['test/integration/identity/role-matrix.test.ts', 'test/integration/identity/member-isolation.test.ts'];

const timeouts = { testTimeout: 30_000, hookTimeout: 60_000 };

/** The integration tests' project, less `exclude`: one shared local stack for the run, reached through inject() and HTTP. */
const sharedStack = {
  env,
  // One local stack (DynamoDB Local, S3/SES stand-ins, gateway) for the whole run; each test makes its own tenant.
  globalSetup: ['test/support/global-setup.ts'],
  ...timeouts,
  // As unit: these files reach the stack through inject() and HTTP, never through the process's environment.
  isolate: false,
  setupFiles: ['test/support/shared-worker.ts'],
};

export default defineConfig({
  test: {
    // Vitest's default on 2 cores is one worker (cores - 1), which leaves them idle while HTTP tests wait on the stack.
    maxWorkers: 3,
    projects: [
      {
        test: {
          name: 'unit',
          // clients/js/test/unit: the JavaScript client against local servers that stall, fail or rate limit.
          include: ['test/unit/**/*.test.ts', 'test/infra/**/*.test.ts', 'clients/js/test/unit/**/*.test.ts'],
          exclude: SLOW_FILES,
          env,
          // Files share a worker process, so the SDK, the CDK and the rest of node_modules load once per worker, not
          // once per file. shared-worker.ts ends each file's stubs; a file that mocks a module undoes it (table-grants.test.ts).
          isolate: false,
          setupFiles: ['test/support/shared-worker.ts'],
          // Stack synthesis is CPU-bound and shares the cores with the other workers: its tests need more than 5 s there.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration',
          // clients/*/test/integration: the JavaScript and PHP clients against the same local stack.
          include: ['test/integration/**/*.test.ts', 'clients/js/test/integration/**/*.test.ts', 'clients/php/tests/*.test.ts'],
          exclude: [...OWN_STACK_FILES, ...SLOW_FILES, ...BROWSER_FILES, ...MATRIX_FILES],
          ...sharedStack,
        },
      },
      {
        test: { name: 'browser', include: BROWSER_FILES, ...sharedStack },
      },
      {
        test: { name: 'matrices', include: MATRIX_FILES, ...sharedStack },
      },
      {
        test: {
          name: 'own-stack',
          include: OWN_STACK_FILES,
          env,
          ...timeouts,
        },
      },
      {
        test: {
          name: 'slow',
          include: SLOW_FILES,
          env,
          ...timeouts,
        },
      },
    ],
  },
});
