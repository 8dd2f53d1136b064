import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FUNCTION_CONFIG_SECTIONS, loadConfig } from '../../../shared/platform/config.js';
import { HANDLER_ENTRIES } from '../../../infra/routes.js';
import { WORKER_ENTRIES } from '../../../infra/worker-entries.js';

const ROOT = join(import.meta.dirname, '../../..');
const env = { RUNTIME: 'aws', TABLE_NAME: 'table', AWS_REGION: 'eu-west-1' };

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe('settings parsed per function', () => {
  it('read a section only when a function names it', () => {
    const core = loadConfig({ ...env, MAIL_FROM: 'not an address', PUBLIC_BASE_URL: 'nor a url' });
    expect(core).not.toHaveProperty('mailFrom');
    expect(core).not.toHaveProperty('publicBaseUrl');
    expect(loadConfig({ ...env, MAIL_FROM: 'sales@vendor.example' }, FUNCTION_CONFIG_SECTIONS.mailSender).mailFrom).toBe('sales@vendor.example');
    expect(loadConfig({ ...env, PUBLIC_BASE_URL: 'https://licenses.example.com/' }, FUNCTION_CONFIG_SECTIONS.edge).publicBaseUrl).toBe('https://licenses.example.com');
  });

  it('refuse a sender with a display name, saying which variable and why', () => {
    expect(() => loadConfig({ ...env, MAIL_FROM: 'Vendor <sales@vendor.example>' }, FUNCTION_CONFIG_SECTIONS.mailSender)).toThrow(/MAIL_FROM[\s\S]*bare e-mail address/);
  });

  // Each handler module loads as in Lambda's init: its config parsed, its clients built (no request made).
  it('let a malformed MAIL_FROM stop the mail sender at its cold start, and no other function', async () => {
    for (const [name, value] of Object.entries({ ...env, MAIL_FROM: 'Vendor <sales@vendor.example>', POWERTOOLS_METRICS_DISABLED: 'true' })) vi.stubEnv(name, value);
    // The test stack's lowered hashing cost, which the workers inherit, is refused outside the local runtime.
    vi.stubEnv('PASSWORD_HASH_COST', undefined);
    const entries = { ...HANDLER_ENTRIES, ...WORKER_ENTRIES };
    const outcomes: Record<string, string> = {};
    for (const [name, entry] of Object.entries(entries)) {
      vi.resetModules();
      outcomes[name] = await import(pathToFileURL(join(ROOT, entry)).href).then(
        (module: { handler?: unknown }) => typeof module.handler,
        (error: Error) => error.message,
      );
    }
    const { mailSender, ...others } = outcomes;
    expect(mailSender).toMatch(/MAIL_FROM/);
    expect(Object.values(others)).toEqual(Object.keys(others).map(() => 'function'));
  }, 120_000);
});
