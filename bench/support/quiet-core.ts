/**
 * Which core to measure a cold start on. On the project's shared 2-core virtual machines the host's other work slows
 * one core, or both, for minutes: the same bundle's import took ~100 ms of CPU on one core and ~150 ms on the other,
 * back to back, with nothing else running in the machine. In Lambda a function below 1,769 MB has at most one core's
 * worth of CPU, so pinning an import to one core measures what it pays there; pinning it to the core that runs a
 * fixed piece of work fastest just before measures the bundle rather than the host. Where `taskset` is missing (not
 * Linux) or the process may use one core only, nothing is pinned.
 */
import { spawnSync } from 'node:child_process';
import { medianOf } from './rounds.js';

/** A fixed piece of CPU work, run in a fresh process as the imports are: its CPU time says how fast a core runs now. */
const FIXED_WORK = `const c = process.cpuUsage(); const o = { list: [1, 2, 3], text: 'text'.repeat(64) }; let n = 0;
for (let i = 0; i < 20000; i++) n += JSON.parse(JSON.stringify(o)).text.length;
const u = process.cpuUsage(c); console.log((u.user + u.system) / 1000, n);`;

/** The cores this process may run on, from `taskset` ("pid 1's current affinity list: 0,2-3"); empty without it. */
function allowedCores(): number[] {
  const result = spawnSync('taskset', ['-cp', String(process.pid)], { encoding: 'utf8' });
  if (result.status !== 0) return [];
  const list = result.stdout.split(':').pop()!.trim();
  return list.split(',').flatMap((range) => {
    const [first, last = first] = range.split('-').map(Number);
    return Array.from({ length: last! - first! + 1 }, (_, i) => first! + i);
  });
}

const CORES = allowedCores();

/** `node` with `args`, pinned to `core` when one is given: a command and its arguments for `spawnSync`. */
export function nodeOn(core: number | undefined, args: string[]): [string, string[]] {
  return core === undefined ? [process.execPath, args] : ['taskset', ['-c', String(core), process.execPath, ...args]];
}

function fixedWorkMs(core: number): number {
  const [command, args] = nodeOn(core, ['-e', FIXED_WORK]);
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`the fixed work failed on core ${core}:\n${result.stderr}`);
  return Number(result.stdout.trim().split(' ')[0]);
}

/** The core that runs the fixed work in the least CPU time now (median of `samples` runs on each), with each core's. */
function measureCores(samples: number) {
  const workMs = CORES.map((core) => ({ core, ms: medianOf(Array.from({ length: samples }, () => fixedWorkMs(core))) }));
  return { quietest: workMs.reduce((best, next) => (next.ms < best.ms ? next : best)), workMs };
}

/** The least CPU time the fixed work took on any core in this run. */
let fastestMs = Infinity;
/** A core slower than this, against the run's fastest, is in one of the host's busy spells. */
const BUSY_SPELL = 1.15;

/**
 * Whether `core` still runs at the machine's own speed (the fixed work once, against the fastest this run has seen):
 * run right after a measurement on it, it says whether the host's busy spell began during that measurement.
 */
export function stillQuiet(core: number): boolean {
  const ms = fixedWorkMs(core);
  fastestMs = Math.min(fastestMs, ms);
  return ms <= fastestMs * BUSY_SPELL;
}

/** Whether every core runs at the machine's own speed now (as `stillQuiet`); true where cores cannot be told apart. */
function machineAtOwnSpeed(): boolean {
  return CORES.length < 2 || CORES.map(stillQuiet).every(Boolean);
}

/**
 * For benchmarks whose processes use every core (the HTTP ones): whether the machine still runs at its own speed after
 * a round, and if not, a wait until it does again (measured again and again, a fifth of a second each, for up to
 * `patienceMs`), so that the round run again does not land in the same busy spell.
 */
export function machineStayedAtOwnSpeed(patienceMs = 60_000): boolean {
  if (machineAtOwnSpeed()) return true;
  const start = performance.now();
  while (!machineAtOwnSpeed() && performance.now() - start < patienceMs) continue;
  return false;
}

/**
 * The core to measure on now: the one that runs the fixed work fastest. The host slows the whole machine too, for
 * minutes (the same work then takes ~1.5 times as long on every core), so while the quietest core is more than 15%
 * slower than the fastest this run has seen, the machine is measured again (each measure takes about a second), for
 * up to `patienceMs`: rounds run at the machine's own speed or, after that, say how slow it was. `undefined` when
 * imports cannot be pinned.
 */
export function quietestCore(patienceMs = 60_000): { core: number; workMs: { core: number; ms: number }[]; waitedMs: number } | undefined {
  if (CORES.length < 2) return undefined;
  const start = performance.now();
  let measured = measureCores(3);
  while (measured.quietest.ms > fastestMs * BUSY_SPELL && performance.now() - start < patienceMs) measured = measureCores(3);
  fastestMs = Math.min(fastestMs, measured.quietest.ms);
  return { core: measured.quietest.core, workMs: measured.workMs, waitedMs: performance.now() - start };
}
