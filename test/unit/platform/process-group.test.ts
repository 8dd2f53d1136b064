import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../../infra/local/ports.js';
import { groupMembers, groupRunning, spawnInGroup, stopGroup } from '../../support/process-group.js';

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1', () => resolve(socket.end() && true)).on('error', () => resolve(false));
  });

/** `php -S` with workers, as the PHP client's and WordPress tests run it, in a group of its own; answering once started. */
async function phpServer() {
  const port = await freePort();
  const child = spawnInGroup('php', ['-S', `127.0.0.1:${port}`, '-t', tmpdir()], { env: { ...process.env, PHP_CLI_SERVER_WORKERS: '4' }, stdio: 'ignore' });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // Answering, and its workers forked (the parent answers before they all are): the group is more than its leader.
  while (!(await accepts(port)) || groupMembers(child.pid!).length < 2) {
    if (child.exitCode !== null) throw new Error(`php -S exited (${child.exitCode})`);
    await sleep(50);
  }
  return { child, exited };
}

describe('servers in a process group of their own', () => {
  it('leave their workers running when only the parent is stopped, and nothing once the group is', async () => {
    const { child, exited } = await phpServer();
    child.kill('SIGTERM');
    await exited;
    // What the test runs used to leave: the workers outlive their parent.
    expect(groupRunning(child.pid!)).toBe(true);
    await stopGroup(child);
    expect(groupRunning(child.pid!)).toBe(false);
  }, 20_000);

  it('end with their workers when the group is stopped', async () => {
    const { child } = await phpServer();
    await stopGroup(child);
    expect(groupRunning(child.pid!)).toBe(false);
  }, 20_000);
});
