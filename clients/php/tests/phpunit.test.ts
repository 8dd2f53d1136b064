/**
 * Runs the PHP client's PHPUnit suite (clients/php/tests) against this run's local stack: `LICENSING_BASE_URL` names
 * it. Needs Debian's `php-cli`, `php-curl` and `phpunit` (.ci/run installs them).
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, inject, it } from 'vitest';

const here = dirname(fileURLToPath(import.meta.url));

it('passes the PHP client suite against the local stack (PHPUnit)', async () => {
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    const child = spawn('phpunit', ['-c', join(here, '..', 'phpunit.xml.dist'), '--do-not-cache-result'], {
      env: { ...process.env, LICENSING_BASE_URL: inject('baseUrl') },
    });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.on('error', (error) =>
      reject(new Error(`phpunit could not be started (${error.message}): apt-get install -y php-cli php-curl phpunit`)),
    );
    child.on('close', (code) => resolve({ code, output }));
  });
  const summary = /^OK \((\d+) tests?, (\d+) assertions?\)$/m.exec(output);
  expect(summary, output).not.toBeNull();
  console.log(`PHPUnit: ${summary![0]}`);
  expect(code, output).toBe(0);
}, 300_000);
