import type { Context } from 'aws-lambda';
import { WORKER_ENTRIES } from '../worker-entries.js';
import { importFunctionEntry } from './function-entry.js';
import { lambdaContext } from './lambda-context.js';

/** The scheduled jobs of the stack, as EventBridge rules run them in AWS: entry file and local interval. */
const JOBS = [
  {
    name: 'expirySweep',
    entry: WORKER_ENTRIES.expirySweep,
    /** `EXPIRY_SWEEP_INTERVAL_MS` (default one minute); 0 turns the local timer off. */
    intervalMs: (env: NodeJS.ProcessEnv) => Number(env.EXPIRY_SWEEP_INTERVAL_MS ?? 60_000),
  },
  {
    name: 'leaseExpiry',
    entry: WORKER_ENTRIES.leaseExpiry,
    /** `LEASE_EXPIRY_INTERVAL_MS` (default one minute, as in AWS); 0 turns the local timer off. */
    intervalMs: (env: NodeJS.ProcessEnv) => Number(env.LEASE_EXPIRY_INTERVAL_MS ?? 60_000),
  },
  {
    name: 'healthCheck',
    entry: WORKER_ENTRIES.healthCheck,
    /** `HEALTH_CHECK_INTERVAL_MS`; unset or 0, off: tests leave dead letters behind on purpose, which it would report. */
    intervalMs: (env: NodeJS.ProcessEnv) => Number(env.HEALTH_CHECK_INTERVAL_MS ?? 0),
  },
  {
    name: 'outboxSweep',
    entry: WORKER_ENTRIES.outboxSweep,
    /** `OUTBOX_SWEEP_INTERVAL_MS` (default one minute); 0 turns the local timer off. */
    intervalMs: (env: NodeJS.ProcessEnv) => Number(env.OUTBOX_SWEEP_INTERVAL_MS ?? 60_000),
  },
];

/** A scheduled handler: EventBridge's event says nothing the jobs read, so none is passed. */
type JobHandler = (event: undefined, context: Context) => Promise<unknown>;

/**
 * Runs each job's handler periodically in this process. A run starts only after the previous one
 * ended (never overlapping), failures are logged and the timer goes on, as a scheduled Lambda would.
 * The timers do not keep the process alive; `stop` waits for a run in progress.
 */
export async function startScheduler(instance: number, env: NodeJS.ProcessEnv): Promise<{ stop: () => Promise<void> }> {
  const timers = new Map<string, NodeJS.Timeout>();
  const running = new Set<Promise<void>>();
  let stopped = false;
  for (const job of JOBS) {
    const intervalMs = job.intervalMs(env);
    if (!Number.isFinite(intervalMs) || intervalMs <= 0) continue;
    // Imported after the stack has set the environment: the module reads its config when it loads.
    const { handler } = await importFunctionEntry<{ handler: JobHandler }>(job.entry, instance);
    const schedule = () => {
      if (stopped) return;
      const timer = setTimeout(() => {
        const run = handler(undefined, lambdaContext(job.name))
          .then(() => undefined, (error) => console.error(`local scheduler: ${job.name} failed`, error))
          .finally(() => {
            running.delete(run);
            schedule();
          });
        running.add(run);
      }, intervalMs);
      timer.unref();
      timers.set(job.name, timer);
    };
    schedule();
  }
  return {
    stop: async () => {
      stopped = true;
      for (const timer of timers.values()) clearTimeout(timer);
      await Promise.all(running);
    },
  };
}
