import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = resolve(fileURLToPath(import.meta.url), '../../..');

export type ServiceProcess = { child: ChildProcess; url: string };

/**
 * `npm start` as a process of its own (the command README gives; scripts/start-local.ts), in a process group of its
 * own so that a test can kill all of it. Resolves once it prints that it listens.
 */
export async function startServiceProcess(env: Record<string, string>): Promise<ServiceProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start-local.ts'], {
    cwd: PROJECT_ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      // .ci/run's mark, so that its last check sees whatever this service left running.
      ...(process.env.LICENSING_CI_RUN && { LICENSING_CI_RUN: process.env.LICENSING_CI_RUN }),
      ...env,
    },
  });
  let output = '';
  await new Promise<void>((ready, fail) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk;
      if (output.includes('listening on')) ready();
    });
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk));
    child.once('exit', (code) => fail(new Error(`service exited (${code}) before it was ready:\n${output}`)));
  });
  return { child, url: `http://localhost:${env.PORT}` };
}

/** A clean stop (SIGTERM), which ends DynamoDB Local too. */
export async function stopServiceProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
