import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
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

/** Starts DynamoDB Local (Java) in memory, or persisting under `dbPath`. */
export async function startDynamoDbLocal(options: { dbPath?: string }): Promise<DynamoDbLocal> {
  const port = await freePort();
  const dir = jarDirectory();
  const storage = options.dbPath ? ['-dbPath', options.dbPath] : ['-inMemory'];
  if (options.dbPath) mkdirSync(options.dbPath, { recursive: true });
  const java: ChildProcess = spawn(
    'java',
    ['-Xmx1g', `-Djava.library.path=${join(dir, 'DynamoDBLocal_lib')}`, '-jar', join(dir, 'DynamoDBLocal.jar'), '-port', String(port), '-sharedDb', ...storage],
    { cwd: dir, stdio: ['ignore', 'ignore', 'pipe'] },
  );
  let stderr = '';
  java.stderr?.on('data', (chunk) => (stderr += chunk));
  const exited = new Promise<void>((resolve) => java.once('exit', () => resolve()));
  java.once('error', (error) => (stderr += String(error)));

  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
  try {
    await waitFor('DynamoDB Local', async () => {
      if (java.exitCode !== null) throw new Error(`DynamoDB Local exited: ${stderr}`);
      await client.send(new ListTablesCommand({}));
      return true;
    });
  } catch (error) {
    java.kill('SIGKILL');
    throw new Error(`${(error as Error).message}\n${stderr}`);
  } finally {
    client.destroy();
  }
  return {
    endpoint,
    stop: async () => {
      if (java.exitCode === null) java.kill('SIGTERM');
      await exited;
    },
  };
}
