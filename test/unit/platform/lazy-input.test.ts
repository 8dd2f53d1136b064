import * as z from 'zod/mini';
import { describe, expect, it } from 'vitest';
import { inputWith, lazyInput } from '../../../shared/platform/http/route.js';
import { lazily } from '../../../shared/platform/lazily.js';

describe('lazyInput', () => {
  it('builds a route schema when it is first read, once, and keeps the other fields as given', () => {
    let built = 0;
    const body = lazily(() => (built++, z.object({ license_key: z.string() })));
    const input = lazyInput({ body, permission: 'read' });
    expect(built).toBe(0);
    expect(input.permission).toBe('read');
    expect(input.query).toBeUndefined();
    expect(z.safeParse(input.body!, { license_key: 'KEY' }).success).toBe(true);
    expect(input.body).toBe(body());
    expect(built).toBe(1);
  });

  it('stays lazy when an idempotent route adds its flag, which a spread would not', () => {
    let built = 0;
    const input = inputWith(lazyInput({ query: () => (built++, z.object({})) }), { idempotent: true });
    expect(input.idempotent).toBe(true);
    expect(built).toBe(0);
    expect(input.query).toBeDefined();
    expect(built).toBe(1);
    expect({ ...lazyInput({ query: () => (built++, z.object({})) }) }.query).toBeDefined();
    expect(built).toBe(2);
  });
});
