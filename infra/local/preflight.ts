import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';

/**
 * What `npm start` needs before it starts anything, each refusal one line that says what to do (DECISIONS §22):
 * Java for DynamoDB Local, and a free port for the gateway.
 */
export async function preflightProblem(port: number): Promise<string | undefined> {
  const java = spawnSync('java', ['-version'], { stdio: 'ignore' });
  if (java.error) {
    return 'npm start needs Java 17 or later for DynamoDB Local, and none is on PATH: install one (e.g. `apt-get install default-jre-headless`) and run npm start again.';
  }
  const taken = await new Promise<boolean>((resolve) => {
    const probe = createServer()
      .once('error', () => resolve(true))
      .once('listening', () => probe.close(() => resolve(false)))
      .listen(port);
  });
  if (taken) return `Port ${port} is already in use: stop what is using it, or choose another port: PORT=${port + 1} npm start`;
  return undefined;
}
