import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

/** `npm start` refused before it starts anything: one line that says what to do, and a non-zero exit (DECISIONS §22). */
const ROOT = new URL('../../../', import.meta.url).pathname;

function start(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/start-local.ts'], { cwd: ROOT, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('npm start refused', () => {
  it('without Java on PATH: one line naming Java, exit 1', async () => {
    const emptyPath = mkdtempSync(join(tmpdir(), 'no-java-'));
    const { code, stdout, stderr } = await start({ PATH: emptyPath, PORT: '0' });
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(/needs Java 17 or later .* install one/)]);
  }, 30_000);

  it('with its port taken: one line naming the port and how to choose another, exit 1', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, resolve));
    const { port } = server.address() as AddressInfo;
    try {
      const { code, stdout, stderr } = await start({ PORT: String(port) });
      expect(code).toBe(1);
      expect(stdout).toBe('');
      expect(stderr.trim().split('\n')).toEqual([`Port ${port} is already in use: stop what is using it, or choose another port: PORT=${port + 1} npm start`]);
    } finally {
      server.close();
    }
  }, 30_000);
});
