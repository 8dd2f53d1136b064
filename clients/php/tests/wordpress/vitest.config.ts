import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The real-WordPress acceptance test of the PHP updater (`npm run test:wordpress`): its own run, since it installs
 * WordPress and MariaDB and starts a local stack it stops halfway. Not part of `npm test`; `.ci/run` runs it.
 */
export default defineConfig({
  root: join(dirname(fileURLToPath(import.meta.url)), '../../../..'),
  test: {
    name: 'wordpress',
    include: ['clients/php/tests/wordpress/*.test.ts'],
    env: { POWERTOOLS_DEV: 'true', POWERTOOLS_LOG_LEVEL: 'WARN', POWERTOOLS_METRICS_DISABLED: 'true' },
    testTimeout: 120_000,
    hookTimeout: 240_000,
    fileParallelism: false,
  },
});
