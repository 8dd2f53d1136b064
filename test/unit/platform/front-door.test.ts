import { describe, expect, it } from 'vitest';
import { ORIGIN_SECRET_MAX_AGE_MS, ORIGIN_SECRET_REREAD_MS, originSecret, originSecretOf } from '../../../shared/platform/http/front-door.js';

/** The stack's secret as Secrets Manager keeps it: `rotate` is `put-secret-value`, the old value becoming the previous one. */
function storedSecret(first: string) {
  const secret = { current: first, previous: undefined as string | undefined, reads: 0 };
  return {
    secret,
    source: {
      current: async () => (secret.reads++, secret.current),
      previous: async () => (secret.reads++, secret.previous),
    },
    rotate: (value: string) => Object.assign(secret, { previous: secret.current, current: value }),
    dropPrevious: () => Object.assign(secret, { previous: undefined }),
  };
}

describe('the front door’s secret', () => {
  it('is accepted through a rotation, old value and new, with no request refused; the dropped one goes within the hour', async () => {
    let now = 0;
    const stored = storedSecret('old-value');
    const container = originSecret(stored.source, () => now);
    expect(await container.accepts('old-value')).toBe(true);
    expect(stored.secret.reads).toBe(1);
    expect(await container.accepts('old-value')).toBe(true);
    expect(stored.secret.reads).toBe(1); // read once, kept

    // 1. A new value is put: CloudFront still sends the old one for now, which stays good.
    stored.rotate('new-value');
    now += 60_000;
    expect(await container.accepts('old-value')).toBe(true);
    // A container started after the put reads the new value and takes the old one as the previous.
    const fresh = originSecret(stored.source, () => now);
    expect(await fresh.accepts('old-value')).toBe(true);
    // 2. CloudFront's edges move to the new value one by one, while others still send the old: both are let in.
    expect(await container.accepts('new-value')).toBe(true);
    expect(await container.accepts('old-value')).toBe(true);
    expect(await fresh.accepts('new-value')).toBe(true);

    // 3. Once every edge sends the new value, the previous is dropped: kept containers forget it within the hour.
    stored.dropPrevious();
    expect(await container.accepts('old-value')).toBe(true);
    now += ORIGIN_SECRET_MAX_AGE_MS;
    expect(await container.accepts('old-value')).toBe(false);
    expect(await container.accepts('new-value')).toBe(true);
  });

  it('reads again for an unknown value at most once an interval, so a guessing caller costs little', async () => {
    let now = 0;
    const stored = storedSecret('value');
    const container = originSecret(stored.source, () => now);
    expect(await container.accepts('value')).toBe(true);
    const before = stored.secret.reads;
    for (const guess of ['guess-1', 'guess-2', 'guess-3']) expect(await container.accepts(guess)).toBe(false);
    // The previous value (none) and one re-read of both: then nothing more within the interval.
    expect(stored.secret.reads - before).toBe(3);
    now += ORIGIN_SECRET_REREAD_MS;
    expect(await container.accepts('guess-4')).toBe(false);
    expect(stored.secret.reads - before).toBe(5);
    // No header at all is refused without a read.
    expect(await container.accepts(undefined)).toBe(false);
    expect(await container.accepts('')).toBe(false);
    expect(stored.secret.reads - before).toBe(5);
  });

  it('knows, without reading, only what was read: what clientAddress trusts after the middleware let a request in', async () => {
    const stored = storedSecret('value');
    const container = originSecret(stored.source);
    expect(container.knows('value')).toBe(false);
    await container.accepts('value');
    expect([container.knows('value'), container.knows('other'), container.knows(undefined)]).toEqual([true, false, false]);
  });

  it('is the local token as it is, the same object for one configuration, and none without either setting', async () => {
    const config = { originVerifyToken: 'local-token' };
    const local = originSecretOf(config)!;
    expect([local.knows('local-token'), await local.accepts('local-token'), await local.accepts('other')]).toEqual([true, true, false]);
    expect(originSecretOf(config)).toBe(local);
    expect(originSecretOf({ originVerifyToken: undefined })).toBeUndefined();
  });
});
