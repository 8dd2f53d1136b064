import { randomBytes } from 'node:crypto';
import { ensureDashboardBuilt } from '../infra/dashboard-build.js';
import { preflightProblem } from '../infra/local/preflight.js';
import { startLocalStack } from '../infra/local/stack.js';

/**
 * `npm start`: the whole service on this machine (DECISIONS §1), with the dashboard at `/` (built first when its
 * build is missing or stale). Ctrl-C stops everything it started.
 */
const port = Number(process.env.PORT ?? 3000);
const dataDir = process.env.DATA_DIR ?? '.data';
// The dashboard is served here, same-origin with /api: it is where OAuth sign-ins land unless told otherwise.
const dashboardUrl = process.env.DASHBOARD_URL ?? process.env.PUBLIC_BASE_URL ?? `http://localhost:${port}`;

const problem = await preflightProblem(port);
if (problem) {
  console.error(problem);
  process.exit(1);
}

ensureDashboardBuilt();
// Like a default deployment: the gateway is the front door, and the functions refuse what comes around it.
const stack = await startLocalStack({ port, dataDir, env: { DASHBOARD_URL: dashboardUrl }, originVerifyToken: randomBytes(24).toString('base64url') });
console.log(`Licensing service listening on ${stack.url} (dashboard: ${dashboardUrl}, data: ${dataDir})`);

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    console.log('Stopping…');
    await stack.stop();
    process.exit(0);
  });
}
