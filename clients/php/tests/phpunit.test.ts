/**
 * Runs the PHP client's PHPUnit suite (clients/php/tests) against this run's local stack: `LICENSING_BASE_URL` names
 * it. Needs Debian's `php-cli`, `php-curl` and `phpunit` (.ci/run installs them).
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, inject, it } from 'vitest';
import { groupRunning, spawnInGroup, stopGroup } from '../../../test/support/process-group.js';

const here = dirname(fileURLToPath(import.meta.url));

it('passes the PHP client suite against the local stack (PHPUnit)', async () => {
  // PHPUnit leads a process group of its own: whatever a test starts and leaves running (a `php -S` and its workers)
  // is in it, or in a group of its own that the test ends (tests/Support/ScriptServer.php).
  const child = spawnInGroup('phpunit', ['-c', join(here, '..', 'phpunit.xml.dist'), '--do-not-cache-result'], {
    env: { ...process.env, LICENSING_BASE_URL: inject('baseUrl') },
  });
  const { code, output } = await new Promise<{ code: number | null; output: string }>((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk) => (output += chunk));
    child.stderr!.on('data', (chunk) => (output += chunk));
    child.on('error', (error) =>
      reject(new Error(`phpunit could not be started (${error.message}): apt-get install -y php-cli php-curl phpunit`)),
    );
    child.on('close', (code) => resolve({ code, output }));
  });
  const leftBehind = groupRunning(child.pid!);
  await stopGroup(child);
  expect(leftBehind, 'PHPUnit ended with processes of its group still running').toBe(false);
  const summary = /^OK \((\d+) tests?, (\d+) assertions?\)$/m.exec(output);
  expect(summary, output).not.toBeNull();
  console.log(`PHPUnit: ${summary![0]}`);
  expect(code, output).toBe(0);
}, 300_000);
