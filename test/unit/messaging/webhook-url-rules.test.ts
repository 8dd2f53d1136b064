import { describe, expect, it } from 'vitest';
import { createManagementDeps, managementRoutes } from '../../../functions/management/app.js';
import { ALL_CONFIG_SECTIONS, loadConfig } from '../../../shared/platform/config.js';
import { BadRequestError } from '../../../shared/platform/errors.js';
import { parseInput } from '../../../shared/platform/http/validation.js';

/** The body rules of `POST /api/webhooks` with the address guard on, as it always is in AWS. */
const config = loadConfig({ TABLE_NAME: 'table', RUNTIME: 'local', WEBHOOK_ADDRESS_GUARD: 'on' }, ALL_CONFIG_SECTIONS);
const createRoute = managementRoutes(createManagementDeps(config)).find((route) => route.method === 'POST' && route.path === '/api/webhooks')!;

function refusal(url: string): string | undefined {
  try {
    parseInput(createRoute.input!.body!, { name: 'Hook', url, events: ['license.created'] });
    return undefined;
  } catch (error) {
    if (error instanceof BadRequestError) return error.message;
    throw error;
  }
}

describe('webhook URL rules with the address guard on', () => {
  it('answers a value that is no URL as such (400), not as a failure of the guard', () => {
    for (const url of ['', 'nope', 'https://']) expect(refusal(url)).toBe('url: must be an http(s) URL');
  });

  it('refuses literal private and loopback addresses, and accepts public ones', () => {
    expect(refusal('http://127.0.0.1/hook')).toBe('url: must not point to a private or loopback address');
    expect(refusal('http://[::1]/hook')).toBe('url: must not point to a private or loopback address');
    expect(refusal('http://localhost:8080/hook')).toBe('url: must not point to a private or loopback address');
    expect(refusal('https://hooks.example.com/licensing')).toBeUndefined();
  });
});
