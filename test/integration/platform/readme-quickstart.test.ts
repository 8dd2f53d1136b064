import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';

/**
 * README's quickstart, run as written: the shell blocks after the `quickstart:` markers, in one bash, against this
 * run's local stack (its port as `PORT`, as a reader who runs `PORT=… npm start` sets it), so the quickstart cannot
 * go stale. Needs bash, curl and jq (.ci/run installs them when missing).
 */
const README = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');

function quickstartBlock(name: string): string {
  const found = new RegExp(`<!-- quickstart:${name}\\b[^>]*-->\\s*\`\`\`sh\\n([\\s\\S]*?)\`\`\``).exec(README);
  if (!found) throw new Error(`README has no \`<!-- quickstart:${name} -->\` shell block`);
  return found[1]!;
}

const workDir = mkdtempSync(join(tmpdir(), 'quickstart-'));
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe("README's quickstart", () => {
  it('takes a new account to a validated license key, then reads it through the portal with an API key', () => {
    const license = quickstartBlock('license');
    const portal = quickstartBlock('portal');
    expect(license).toContain('BASE=http://localhost:${PORT:-3000}\n');
    // A line between the blocks' outputs (curl prints no newline of its own).
    const script = `set -euo pipefail\n${license}\necho; echo __PORTAL__\n${portal}`;
    const env = { ...process.env, PORT: new URL(inject('baseUrl')).port };
    const output = execFileSync('bash', ['-c', script], { cwd: workDir, env, encoding: 'utf8', timeout: 60_000 });
    const [licenseOutput, portalOutput] = output.split('__PORTAL__');

    // register → {user}, activate → {success, activation_id, environment, license: {features}, license_key, domain} (example.com takes a seat), validate → {valid: true, …}
    expect(licenseOutput).toMatch(/"user":\{"id":"usr_/);
    expect(licenseOutput).toMatch(/\{"success":true,"activation_id":"act_[a-z2-7]{24}","environment":"production","license":\{"features":\[\]\},"license_key":"MY-PLUGI-[A-Z2-9-]+","domain":"example\.com"\}/);
    const validation = JSON.parse(/\{"valid":.*"domain":"example\.com"\}/.exec(licenseOutput!)![0]);
    expect(validation).toMatchObject({ valid: true, license: { status: 'active', seats: 2, activatedCount: 1, stagingCount: 0, expiresAt: null }, product: { name: 'My Plugin' } });
    expect(validation.license.key).toMatch(/^MY-PLUGI-[A-Z2-9]{4}(-[A-Z2-9]{4}){3}$/);
    // Signed answers name the key and the site they are about (DECISIONS §13).
    expect(validation).toMatchObject({ license_key: validation.license.key, domain: 'example.com' });

    const licenses = JSON.parse(portalOutput!.trim());
    expect(licenses.data).toEqual([expect.objectContaining({ licenseKey: validation.license.key, status: 'active', seats: 2, siteCount: 1, productName: 'My Plugin' })]);
  });
});
