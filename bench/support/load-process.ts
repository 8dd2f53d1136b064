/** Drives a load generator (./load.ts) in a process of its own and reads this process's CPU meanwhile. */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export type Measured = { name: string; rps: number; p50: number; p99: number; failures: number };
/** `serviceCpuMicros`: this process's CPU per request; `loadCpuMicros`: the load generator's own. */
export type LoadResult = Measured & { requests: number; serviceCpuMicros: number; loadCpuMicros: number };

export type LoadOptions = { url: string; connections: number; duration: number; bodies?: string[]; activateKeys?: string[]; headers?: Record<string, string> };

const LOAD_SCRIPT = fileURLToPath(new URL('./load.ts', import.meta.url));

/**
 * Runs bench/support/load.ts in a process of its own; meanwhile this process serves the requests, so its
 * CPU time over the run is the service's (gateway, middy, validation, ElectroDB, the SDK, JSON).
 */
export function loadFromAnotherProcess(name: string, options: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    const cpuBefore = process.cpuUsage();
    const child = spawn(process.execPath, ['--import', 'tsx', LOAD_SCRIPT, JSON.stringify(options)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (chunk) => (out += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      const cpu = process.cpuUsage(cpuBefore);
      if (code !== 0) return reject(new Error(`load generator exited with ${code}`));
      const { loadCpuMicros, ...result } = JSON.parse(out) as Omit<LoadResult, 'name' | 'serviceCpuMicros'>;
      const perRequest = (micros: number) => micros / Math.max(1, result.requests);
      resolve({ name, ...result, serviceCpuMicros: perRequest(cpu.user + cpu.system), loadCpuMicros: perRequest(loadCpuMicros) });
    });
  });
}

export function print<M extends Measured>(run: M): M {
  console.log(`${run.name.padEnd(24)} ${run.rps.toFixed(0).padStart(7)} req/s  p50 ${run.p50} ms  p99 ${run.p99} ms  failures ${run.failures}`);
  return run;
}

/** The run of median throughput. */
export const median = <M extends Measured>(runs: M[]): M => [...runs].sort((a, b) => a.rps - b.rps)[Math.floor(runs.length / 2)]!;
