/**
 * How the comparing benchmarks judge on a shared machine: the two sides alternate (which goes first alternates too,
 * so drift over the run weighs on both), each round gives a ratio, and the median ratio is judged, with the spread
 * of the rounds beside it. Rounds that spread over more than ±SPREAD_LIMIT of the median measure the machine's other
 * load more than the difference: such a run says so and is not judged.
 */
import { loadavg } from 'node:os';

export const SPREAD_LIMIT = 0.15;

/** The machine's load averages (1, 5, 15 minutes), as printed at the start and end of every benchmark. */
export function loadAverage(): string {
  return loadavg()
    .map((load) => load.toFixed(2))
    .join(' ');
}

/** Prints the load average now, under `moment` ("start", "end"). */
export function printLoad(moment: string): void {
  console.log(`load average at ${moment}: ${loadAverage()}  (1, 5, 15 min)`);
}

/**
 * Runs the sides in turn, `rounds` times, in their order in even rounds and the reverse in odd ones; answers each
 * side's results, by side, in round order. A round after which `steady()` says the machine no longer runs at its own
 * speed (the host slowed a core during it: bench/support/quiet-core.ts) is run again, up to `rounds` times in all: its
 * sides were not measured on the same machine. Answers the results and how many rounds were run again.
 */
export async function alternateAtSteadySpeed<T extends unknown[]>(
  rounds: number,
  steady: () => boolean,
  ...sides: { [I in keyof T]: () => Promise<T[I]> }
): Promise<{ results: { [I in keyof T]: T[I][] }; retaken: number }> {
  const results = sides.map(() => [] as unknown[]);
  let retaken = 0;
  for (let round = 0; round < rounds; round++) {
    const order = sides.map((_, i) => i);
    if (round % 2) order.reverse();
    const roundResults: unknown[] = [];
    for (const i of order) roundResults[i] = await sides[i]!();
    if (!steady() && retaken < rounds) {
      retaken++;
      round--;
      continue;
    }
    roundResults.forEach((result, i) => results[i]!.push(result));
  }
  return { results: results as { [I in keyof T]: T[I][] }, retaken };
}

/**
 * As `alternateAtSteadySpeed`, after one more round that is run and dropped: on a busy machine the first round still
 * runs colder than the rest (the JIT, the heap's size), even after each side's warm-up, and would stretch the spread on its own.
 */
export async function alternateAfterWarmUp<T extends unknown[]>(
  rounds: number,
  steady: () => boolean,
  ...sides: { [I in keyof T]: () => Promise<T[I]> }
): Promise<{ results: { [I in keyof T]: T[I][] }; retaken: number }> {
  const { results, retaken } = await alternateAtSteadySpeed<T>(rounds + 1, steady, ...sides);
  return { results: results.map((side) => side.slice(1)) as { [I in keyof T]: T[I][] }, retaken };
}

export const medianOf = (values: number[]): number => {
  const sorted = [...values].sort((x, y) => x - y);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
};

export type Verdict = 'met' | 'missed' | 'not judged';

/**
 * One comparison of a run: the ratio of each round, their median and how far the rounds stray from it (the larger of
 * the lowest's and the highest's distance, as a share of the median), judged against `target` (`at most` or `at least`).
 */
export function judgeRatio(name: string, perRound: number[], target: { atMost?: number; atLeast?: number }): Verdict {
  const median = medianOf(perRound);
  const spread = Math.max(median - Math.min(...perRound), Math.max(...perRound) - median) / median;
  const goal = target.atMost !== undefined ? `≤ ${target.atMost}` : `≥ ${target.atLeast}`;
  const met = target.atMost !== undefined ? median <= target.atMost : median >= target.atLeast!;
  const verdict: Verdict = spread > SPREAD_LIMIT ? 'not judged' : met ? 'met' : 'missed';
  console.log(`${name}: ${median.toFixed(2)}  (median of ${perRound.length} alternating rounds: ${perRound.map((r) => r.toFixed(2)).join(', ')}; spread ±${(spread * 100).toFixed(0)}%)`);
  const why = verdict === 'not judged' ? `NOT JUDGED: the rounds spread over ±${SPREAD_LIMIT * 100}%, which measures the machine's other load; run it on a quieter machine` : verdict.toUpperCase();
  console.log(`  target ${goal}: ${why}`);
  return verdict;
}

/** The exit code of a benchmark from its verdicts: 1 when a target was missed, 2 when none was but one was not judged. */
export function exitCodeOf(verdicts: Verdict[]): number {
  if (verdicts.includes('missed')) return 1;
  return verdicts.includes('not judged') ? 2 : 0;
}
