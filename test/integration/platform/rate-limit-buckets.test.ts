import { describe, expect, it } from 'vitest';
import { randomBase32 } from '../../../shared/platform/ids.js';
import { RATE_LIMITS, type RateLimit } from '../../../shared/platform/rate-limits/limits.js';
import { createRateLimiter } from '../../../shared/platform/rate-limits/rate-limiter.js';
import { localData } from '../../support/table.js';

/**
 * The table buckets on DynamoDB Local, at their real sizes, with a clock the test moves: each refuses once
 * empty, says when to come back, gives one token back per refill interval, and fills up while idle.
 */
function limiterAt(start: number) {
  const clock = { at: start, now: () => new Date(clock.at) };
  const limits = createRateLimiter({ data: localData(), clock, config: { rateLimitScale: 1 } });
  return { clock, limits };
}

const refusal = (promise: Promise<unknown>) => promise.then(() => undefined, (error: { statusCode: number; headers: Record<string, string> }) => error);
const tableLimits = Object.values(RATE_LIMITS).filter((limit: RateLimit) => limit.store === 'table');

describe.each(tableLimits)('$name bucket', (limit: RateLimit) => {
  const intervalMs = 1000 / limit.refillPerSecond;

  it('refuses when empty, with Retry-After, and gives a token back per refill interval', async () => {
    const { clock, limits } = limiterAt(Date.now());
    const caller = randomBase32(10);
    for (let n = 0; n < limit.capacity; n++) await limits.take(limit, caller);
    const refused = await refusal(limits.take(limit, caller));
    expect(refused?.statusCode).toBe(429);
    expect(refused?.headers['retry-after']).toBe(String(Math.ceil(intervalMs / 1000)));
    // Another caller has a bucket of its own.
    await limits.take(limit, randomBase32(10));

    clock.at += intervalMs;
    await limits.take(limit, caller);
    expect((await refusal(limits.take(limit, caller)))?.statusCode).toBe(429);

    clock.at += limit.capacity * intervalMs;
    for (let n = 0; n < limit.capacity; n++) await limits.take(limit, caller);
    expect((await refusal(limits.take(limit, caller)))?.statusCode).toBe(429);
  });

  it('hands out exactly its capacity to parallel callers: the bucket is a conditional write, not a read', async () => {
    // Separate limiters: separate containers, with no memory of each other.
    const start = Date.now();
    const caller = randomBase32(10);
    const outcomes = await Promise.all(
      Array.from({ length: limit.capacity * 2 }, () => refusal(limiterAt(start).limits.take(limit, caller))),
    );
    expect(outcomes.filter((o) => o === undefined)).toHaveLength(limit.capacity);
  });
});
