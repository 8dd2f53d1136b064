import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../../infra/local/ports.js';
import { Client } from '../../support/client.js';
import { PROJECT_ROOT, startServiceProcess, stopServiceProcess, type ServiceProcess } from '../../support/service-process.js';

/** `npm run smoke -- --url …` as a vendor runs it after a deploy: its exit code and what it printed. */
async function smoke(args: string[], env: Record<string, string> = {}): Promise<{ code: number; output: string }> {
  const run = promisify(execFile)('npm', ['run', '--silent', 'smoke', '--', ...args], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    timeout: 90_000,
  });
  try {
    const { stdout, stderr } = await run;
    return { code: 0, output: stdout + stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code: number; stdout: string; stderr: string };
    return { code, output: stdout + stderr };
  }
}

const account = { email: 'smoke-vendor@example.com', password: 'correct horse battery' };

// The service as `npm start` runs it, a process of its own.
let service: ServiceProcess;
beforeAll(async () => {
  service = await startServiceProcess({ PORT: String(await freePort()), DATA_DIR: ':memory:' });
}, 120_000);
afterAll(() => service && stopServiceProcess(service.child));

describe('npm run smoke', () => {
  it('passes against npm start, printing each step with its time, and leaves the account empty', async () => {
    const { code, output } = await smoke(['--url', service.url, '--email', account.email], { SMOKE_PASSWORD: account.password });
    expect(output).toContain('Smoke test passed');
    expect(code, output).toBe(0);
    for (const step of ['account', 'release upload (presigned URL)', 'activate', 'validate (signature verified)', 'update check (signature verified)', 'download', 'webhook delivered and verified', 'portal read', 'delete the product']) {
      expect(output).toMatch(new RegExp(`✓ ${step.replace(/[()]/g, '\\$&')} +[\\d.]+ m?s`));
    }
    expect(output).not.toContain('✗');

    // What it made is gone: the account holds no live product, license, customer, webhook or API key.
    const vendor = new Client(service.url);
    expect((await vendor.post('/api/auth/login', account, { origin: null })).status).toBe(200);
    for (const list of ['/api/products', '/api/licenses', '/api/customers', '/api/webhooks', '/api/api-keys']) {
      expect((await vendor.get(list)).body.items, list).toEqual([]);
    }

    // A second run signs in to the same account.
    const again = await smoke(['--url', service.url, '--email', account.email], { SMOKE_PASSWORD: account.password });
    expect(again.output).toMatch(/✓ account .* signed in smoke-vendor@example\.com/);
    expect(again.code, again.output).toBe(0);
  }, 120_000);

  it('fails with the cause when nothing answers at the URL', async () => {
    const { code, output } = await smoke(['--url', `http://localhost:${await freePort()}`]);
    expect(code).toBe(1);
    expect(output).toMatch(/✗ service answers \/health[\s\S]*cause: cannot connect to localhost:\d+ \(connection refused\): is the service running at this address\?/);
    expect(output).toContain('Smoke test FAILED (service answers /health)');
  });

  it('fails with the cause when the URL is not the service\'s base URL', async () => {
    const { code, output } = await smoke(['--url', `${service.url}/api`]);
    expect(code).toBe(1);
    expect(output).toContain(`cause: GET /health answered 404 {"error":"Not found"}: ${service.url}/api is not the licensing service's base URL`);
  });

  it('refuses to register a made-up address on a service that is not on this machine', async () => {
    const { code, output } = await smoke(['--url', 'https://licenses.example.com']);
    expect(code).toBe(2);
    expect(output).toContain('--email is required for licenses.example.com');
  });
});
