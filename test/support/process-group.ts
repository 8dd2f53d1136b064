import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * Starts `command` as the leader of a process group of its own. Servers that fork workers (`php -S` with
 * `PHP_CLI_SERVER_WORKERS`) leave them running when only the parent is killed; ending the group ends them all.
 */
export function spawnInGroup(command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
  return spawn(command, args, { ...options, detached: true });
}

/**
 * The processes of group `pgid` that still run. A zombie (ended, not yet reaped by its parent) does not count. Read from
 * /proc where there is one, since kill(-pgid, 0) also finds zombies (elsewhere: the group as one member, or none).
 */
export function groupMembers(pgid: number): number[] {
  if (!existsSync('/proc/self/stat')) {
    try {
      process.kill(-pgid, 0);
      return [pgid];
    } catch {
      return [];
    }
  }
  return readdirSync('/proc').flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
    } catch {
      return [];
    }
    // `pid (comm) state ppid pgrp …`: the command name may hold spaces and parentheses, so read after its last ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(pgrp) === pgid && state !== 'Z' ? [Number(entry)] : [];
  });
}

/** Whether a process of group `pgid` still runs. */
export const groupRunning = (pgid: number): boolean => groupMembers(pgid).length > 0;

/**
 * Ends the process group `leader` leads: SIGTERM to all of it, SIGKILL to what is left after `graceMs`, then waits
 * until nothing of it runs. Throws if something still does: a test that leaves processes behind fails.
 */
export async function stopGroup(leader: ChildProcess, graceMs = 5_000): Promise<void> {
  const pgid = leader.pid;
  if (pgid === undefined) return;
  const signal = (name: NodeJS.Signals) => {
    try {
      process.kill(-pgid, name);
    } catch {
      // Nothing of the group is left to signal.
    }
  };
  const endedWithin = async (ms: number) => {
    const deadline = Date.now() + ms;
    while (groupRunning(pgid)) {
      if (Date.now() > deadline) return false;
      await sleep(50);
    }
    return true;
  };
  signal('SIGTERM');
  if (await endedWithin(graceMs)) return;
  signal('SIGKILL');
  if (!(await endedWithin(graceMs))) throw new Error(`process group ${pgid} still runs after SIGKILL`);
}
