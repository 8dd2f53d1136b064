import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DynamoDBClient, ListTablesCommand } from '@aws-sdk/client-dynamodb';
import { freePort, waitFor } from './ports.js';

/** The official DynamoDB Local jar, as shipped inside the `amplify-dynamodb-simulator` package. */
function jarDirectory(): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('amplify-dynamodb-simulator/package.json')), 'emulator');
}

export type DynamoDbLocal = { endpoint: string; stop: () => Promise<void> };

/**
 * Java runs under a small shell guard in a process group of its own. The guard's stdin is a pipe from
 * this process: when it closes (a clean stop, or this process dying in any way, even SIGKILL) the guard
 * stops Java with SIGTERM. Java then closes its database cleanly: killed outright, DynamoDB Local can
 * roll back writes it had already acknowledged. Nothing is left behind holding the port or the files.
 */
// A background job's stdin is /dev/null, so the pipe is kept on fd 3 for the watcher (and closed for Java).
const GUARD_SCRIPT = 'exec 3<&0; java "$@" 3<&- & java=$!; (read _ <&3; kill $java 2>/dev/null) & wait $java';

/**
 * `light`: the JIT's first tier only and the single-threaded collector. For a test run's stacks (each a new JVM serving
 * a few thousand requests) the optimizing compiler and the parallel collector's threads cost more CPU than they save:
 * measured on 2 cores, alternately, start included, 55% less of Java's CPU for 10,000 requests and 28% less for 32,000.
 * Under a sustained load the optimized code serves more requests a second, so `npm start` and the benchmarks keep the
 * optimizing compiler; they too take the single-threaded collector, whose cheaper barriers serve DynamoDB Local's one
 * SQLite thread better than G1 (an import of 4,000 licenses on 2 cores, alternately: 6% less time, 8% less of Java's CPU).
 */
const JVM_OPTIONS = { default: ['-Xmx1g', '-XX:+UseSerialGC'], light: ['-Xmx1g', '-XX:TieredStopAtLevel=1', '-XX:+UseSerialGC'] };

/** Where the guard's pid is kept beside a persistent database, so a restart waits for the last one to end. */
const guardPidFile = (dbPath: string) => join(dbPath, 'guard.pid');

/** Waits until a previous DynamoDB Local on this database (one whose parent was killed) has shut down. */
async function previousInstanceGone(dbPath: string): Promise<void> {
  const file = guardPidFile(dbPath);
  if (!existsSync(file)) return;
  const pid = Number(readFileSync(file, 'utf8'));
  const running = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  await waitFor('the previous DynamoDB Local to stop', async () => !running());
}

/** Starts DynamoDB Local (Java) in memory, or persisting under `dbPath`. */
export async function startDynamoDbLocal(options: { dbPath?: string; lightJvm?: boolean }): Promise<DynamoDbLocal> {
  const port = await freePort();
  const dir = jarDirectory();
  const storage = options.dbPath ? ['-dbPath', options.dbPath] : ['-inMemory'];
  if (options.dbPath) {
    mkdirSync(options.dbPath, { recursive: true });
    await previousInstanceGone(options.dbPath);
  }
  const javaArgs = [...JVM_OPTIONS[options.lightJvm ? 'light' : 'default'], `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`, '-jar', join(dir, 'DynamoDBLocal.jar'), '-port', String(port), '-sharedDb', ...storage];
  const guard: ChildProcess = spawn('sh', ['-c', GUARD_SCRIPT, 'dynamodb-local-guard', ...javaArgs], {
    cwd: dir,
    stdio: ['pipe', 'ignore', 'pipe'],
    detached: true,
  });
  if (options.dbPath && guard.pid) writeFileSync(guardPidFile(options.dbPath), String(guard.pid));
  let stderr = '';
  guard.stderr?.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => guard.once('exit', () => resolve()));
  guard.once('error', (error) => (stderr += String(error)));
  const stop = async () => {
    if (guard.exitCode === null && guard.signalCode === null) guard.stdin?.end();
    await exited;
    if (options.dbPath) rmSync(guardPidFile(options.dbPath), { force: true });
  };

  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    await waitFor('DynamoDB Local', async () => {
      if (guard.exitCode !== null) throw new Error(`DynamoDB Local exited: ${stderr}`);
      await client.send(new ListTablesCommand({}));
      return true;
    });
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${stderr}`);
  } finally {
    client.destroy();
  }
  return { endpoint, stop };
}
