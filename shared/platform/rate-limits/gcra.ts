import type { RateLimit } from './limits.js';

/**
 * A token bucket as GCRA (the generic cell rate algorithm) keeps it: one number per bucket, the
 * theoretical arrival time `tat`. A bucket whose `tat` lies at most `toleranceMs` ahead of now has a
 * token; taking it moves `tat` on by `emissionMs`, the time one token takes to refill.
 */
export type BucketTiming = { emissionMs: number; toleranceMs: number };

/** The timing of a limit at a scale (RATE_LIMIT_SCALE > 0): size and refill rate both multiplied. */
export function bucketTiming(limit: Pick<RateLimit, 'capacity' | 'refillPerSecond'>, scale: number): BucketTiming {
  const emissionMs = 1000 / (limit.refillPerSecond * scale);
  const capacity = Math.max(1, limit.capacity * scale);
  return { emissionMs, toleranceMs: (capacity - 1) * emissionMs };
}

export type Decision = { allowed: true; tat: number } | { allowed: false; retryAfterSeconds: number };

/** Whether a request at `now` gets a token from a bucket at `tat` (undefined: full), and the bucket after. */
export function takeToken(tat: number | undefined, now: number, timing: BucketTiming): Decision {
  const from = Math.max(tat ?? now, now);
  if (from - now <= timing.toleranceMs) return { allowed: true, tat: from + timing.emissionMs };
  return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((from - timing.toleranceMs - now) / 1000)) };
}

/**
 * When a refused caller can be sure of a token: a refusal means `tat` is ahead by more than the tolerance,
 * and never by more than the tolerance plus one emission, so one emission is always enough.
 */
export const retryAfterSeconds = (timing: BucketTiming) => Math.max(1, Math.ceil(timing.emissionMs / 1000));
