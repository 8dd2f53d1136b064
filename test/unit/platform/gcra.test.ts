import { describe, expect, it } from 'vitest';
import { bucketTiming, retryAfterSeconds, takeToken } from '../../../shared/platform/rate-limits/gcra.js';

describe('GCRA token bucket', () => {
  const timing = bucketTiming({ capacity: 3, refillPerSecond: 1 }, 1);

  it('lets a full bucket give its capacity at once, then one token per refill interval', () => {
    let tat: number | undefined;
    for (let n = 0; n < 3; n++) {
      const decision = takeToken(tat, 0, timing);
      expect(decision.allowed).toBe(true);
      tat = decision.allowed ? decision.tat : tat;
    }
    expect(takeToken(tat, 0, timing)).toEqual({ allowed: false, retryAfterSeconds: 1 });
    expect(takeToken(tat, 999, timing).allowed).toBe(false);
    expect(takeToken(tat, 1000, timing).allowed).toBe(true);
  });

  it('fills up while idle, never beyond its capacity', () => {
    let tat: number | undefined = 0;
    let allowed = 0;
    for (let decision = takeToken(tat, 60_000, timing); decision.allowed; decision = takeToken(tat, 60_000, timing)) {
      tat = decision.tat;
      allowed++;
    }
    expect(allowed).toBe(3);
  });

  it('scales size and refill rate together; the refusal bound is one refill interval', () => {
    expect(bucketTiming({ capacity: 5, refillPerSecond: 1 / 12 }, 1)).toEqual({ emissionMs: 12_000, toleranceMs: 48_000 });
    expect(bucketTiming({ capacity: 5, refillPerSecond: 1 / 12 }, 10)).toEqual({ emissionMs: 1_200, toleranceMs: 58_800 });
    expect(retryAfterSeconds(bucketTiming({ capacity: 10, refillPerSecond: 1 / 360 }, 1))).toBe(360);
    expect(retryAfterSeconds(bucketTiming({ capacity: 120, refillPerSecond: 2 }, 1))).toBe(1);
  });
});
