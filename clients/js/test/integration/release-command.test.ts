/** The release command (`licensing release`, DECISIONS §24) and the GitHub Action that runs it, against the local stack. */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { newTenant } from '../../../../test/support/client.js';
import { newProduct, type Tenant } from '../../../../test/support/licensing-fixtures.js';
import { pluginZip } from '../../../../test/support/plugin-zip.js';

const clientRoot = join(dirname(fileURLToPath(import.meta.url)), '../..');
const BIN = join(clientRoot, 'bin/licensing.mjs');
const ACTION_DIR = join(clientRoot, '../github-action');

const work = mkdtempSync(join(tmpdir(), 'release-command-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Outcome = { code: number; stdout: string; stderr: string };

/** Runs a command to its end, whatever its exit code. */
function outcome(command: string, args: string[], env: Record<string, string | undefined>): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(command, args, { env: { PATH: process.env.PATH, ...env }, cwd: work, timeout: 30_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

async function file(name: string, bytes: Buffer | string): Promise<string> {
  const path = join(work, name);
  writeFileSync(path, bytes);
  return path;
}

const pluginFiles = (version: string) => ({ 'acme/acme.php': `<?php\n/*\nPlugin Name: Acme\nVersion: ${version}\n*/\n` });

async function vendor(role = 'developer') {
  const tenant = await newTenant();
  const product = await newProduct(tenant, { productType: 'plugin' });
  const key = await tenant.post('/api/api-keys', { name: 'CI', role });
  expect(key.status, key.text).toBe(201);
  return { tenant, product, env: { LICENSING_URL: inject('baseUrl'), LICENSING_API_KEY: key.body.key as string } };
}

const releasesOf = async (tenant: Tenant, productId: string) => (await tenant.get(`/api/products/${productId}/releases`)).body.items as any[];

/** One line on stderr, exit code 1. */
function expectOneLineFailure(result: Outcome, message: RegExp) {
  expect(result.code, result.stdout).toBe(1);
  expect(result.stderr).toMatch(/^licensing: [^\n]+\n$/);
  expect(result.stderr).toMatch(message);
  expect(result.stdout).toBe('');
}

describe('the release command', () => {
  it('publishes a ZIP under the version it names, and prints the release and what the update check offers', async () => {
    const { tenant, product, env } = await vendor();
    const zip = await file('acme-1.4.0.zip', await pluginZip(pluginFiles('1.4.0')));
    const result = await outcome(process.execPath, [BIN, 'release', '--product', product.slug, zip], env);
    expect(result.code, result.stderr).toBe(0);
    const [release] = await releasesOf(tenant, product.id);
    expect(release).toMatchObject({ version: '1.4.0', status: 'published', channel: 'stable', fileName: 'acme-1.4.0.zip', releaseNotes: null });
    expect(result.stdout).toBe(
      `Release ${release.id}: ${product.slug} 1.4.0 (published, stable)\n` +
        `Update check: ${JSON.stringify({ slug: product.slug, version: '1.4.0', new_version: '1.4.0', requires: null, requires_php: null, tested: null })}\n`,
    );
  });

  it('creates a draft on a channel with notes from a file', async () => {
    const { tenant, product, env } = await vendor();
    const zip = await file('acme-2.0.0-beta1.zip', await pluginZip(pluginFiles('2.0.0-beta1')));
    const notes = await file('NOTES.md', 'Faster widgets.\n');
    const result = await outcome(process.execPath, [BIN, 'release', '--product', product.slug, '--channel', 'beta', '--notes', notes, '--draft', zip], env);
    expect(result.code, result.stderr).toBe(0);
    const [release] = await releasesOf(tenant, product.id);
    expect(release).toMatchObject({ version: '2.0.0-beta1', status: 'draft', channel: 'beta', releaseNotes: 'Faster widgets.\n' });
    expect(result.stdout.split('\n')[0]).toBe(`Release ${release.id}: ${product.slug} 2.0.0-beta1 (draft, beta)`);
  });

  it('fails with one line and creates nothing: no or a bad key, a key of a role that may not release, a ZIP naming no version, bad options', async () => {
    const { tenant, product, env } = await vendor();
    const zip = await file('acme-1.0.0.zip', await pluginZip(pluginFiles('1.0.0')));
    const versionless = await file('acme.zip', await pluginZip({ 'acme/acme.php': '<?php\n/* Plugin Name: Acme */\n' }));
    const viewer = await tenant.post('/api/api-keys', { name: 'Read only', role: 'viewer' });
    const run = (args: string[], overrides: Record<string, string | undefined> = {}) => outcome(process.execPath, [BIN, ...args], { ...env, ...overrides });
    const release = (...args: string[]) => ['release', '--product', product.slug, ...args];

    expectOneLineFailure(await run(release(zip), { LICENSING_API_KEY: undefined }), /LICENSING_API_KEY is not set/);
    expectOneLineFailure(await run(release(zip), { LICENSING_URL: undefined }), /LICENSING_URL is not set/);
    expectOneLineFailure(await run(release(zip), { LICENSING_API_KEY: 'pk_live' }), /must be a secret API key/);
    expectOneLineFailure(await run(release(zip), { LICENSING_API_KEY: `sk_${'a'.repeat(32)}` }), /answered 401: /);
    expectOneLineFailure(await run(release(zip), { LICENSING_API_KEY: viewer.body.key }), /answered 403: Your role does not allow this/);
    expectOneLineFailure(await run(release(versionless)), /answered 400: version is required: the ZIP names none/);
    expectOneLineFailure(await run(release(await file('notes.txt', 'not a zip'))), /is not a ZIP archive/);
    expectOneLineFailure(await run(release('--channel', 'nightly', zip)), /--channel must be one of stable, beta, alpha/);
    expectOneLineFailure(await run(['release', '--product', 'no-such-product-slug', zip]), /no product with slug no-such-product-slug/);
    expectOneLineFailure(await run(['release', zip]), /--product is required/);
    expectOneLineFailure(await run(['publish']), /usage: licensing release/);
    expect(await releasesOf(tenant, product.id)).toEqual([]);
    // Eleven runs of the command, each a Node process of its own.
  }, 90_000);
});

describe('the GitHub Action', () => {
  it("is a composite action with the documented inputs, whose step's command publishes the release", async () => {
    const action = parse(readFileSync(join(ACTION_DIR, 'action.yml'), 'utf8'));
    expect(action.runs.using).toBe('composite');
    expect(Object.keys(action.inputs).sort()).toEqual(['channel', 'draft', 'file', 'notes', 'product']);
    expect(action.inputs.product.required && action.inputs.file.required).toBe(true);

    const { tenant, product, env } = await vendor();
    const inputs: Record<string, string> = {
      ...Object.fromEntries(Object.entries(action.inputs as Record<string, { default?: string }>).map(([name, input]) => [name, input.default ?? ''])),
      product: product.slug,
      file: await file('action-3.1.0.zip', await pluginZip(pluginFiles('3.1.0'))),
      channel: 'beta',
      draft: 'true',
      notes: await file('action-notes.md', 'From CI.'),
    };
    // What the runner does: each step's env with its `${{ inputs.x }}` filled in, then its `run` in its shell.
    for (const step of action.runs.steps as { shell: string; run: string; env?: Record<string, string> }[]) {
      const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([name, value]) => [name, value.replace(/\$\{\{\s*inputs\.(\w+)\s*\}\}/g, (_, input: string) => inputs[input]!)]));
      expect(step.shell).toBe('bash');
      const result = await outcome('bash', ['-c', step.run], { ...env, ...stepEnv, GITHUB_ACTION_PATH: ACTION_DIR });
      expect(result.code, result.stderr).toBe(0);
    }
    const [release] = await releasesOf(tenant, product.id);
    expect(release).toMatchObject({ version: '3.1.0', status: 'draft', channel: 'beta', releaseNotes: 'From CI.' });
  });
});
