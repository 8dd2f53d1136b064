import type { CoreConfig } from '../config.js';
import { writeItem } from '../data/writes.js';
import { TooManyRequestsError } from '../errors.js';
import { logger } from '../observability/logger.js';
import { metrics } from '../observability/metrics.js';
import type { Deps } from '../runtime.js';
import { bucketTiming, retryAfterSeconds, takeToken, type BucketTiming } from './gcra.js';
import type { RateLimit } from './limits.js';

/** Buckets one container remembers (its own buckets, or hints about table buckets); the oldest go first. */
const MAX_REMEMBERED = 50_000;

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/**
 * Takes tokens from the buckets of RATE_LIMITS; over a limit it throws 429 with `Retry-After`. Built once
 * per container. A table bucket is one conditional write that fails only when the caller is over the
 * limit, never a read. A bucket store that cannot be reached lets the request through (logged): the
 * limits protect the service, they must not take it down.
 */
export function createRateLimiter(deps: Pick<Deps, 'data' | 'clock'> & { config: Pick<CoreConfig, 'rateLimitScale'> }) {
  const scale = deps.config.rateLimitScale;
  /** Container buckets' `tat`, and for table buckets the last `tat` seen, to try the likely write first. */
  const remembered = new Map<string, number>();
  const remember = (bucket: string, tat: number) => {
    if (remembered.size >= MAX_REMEMBERED) remembered.delete(remembered.keys().next().value!);
    remembered.delete(bucket);
    remembered.set(bucket, tat);
  };

  function takeFromContainer(bucket: string, now: number, timing: BucketTiming): number | undefined {
    const decision = takeToken(remembered.get(bucket), now, timing);
    if (!decision.allowed) return decision.retryAfterSeconds;
    remember(bucket, decision.tat);
    return undefined;
  }

  /**
   * GCRA's two cases, each one conditional UpdateItem that is refused unless it applies: a full bucket (no `tat`, or
   * one past) starts draining at `tat`; a draining one within its tolerance moves `tat` on by one emission. Hot on
   * every activate and deactivate, so direct requests (shared/platform/data/direct-requests.ts), prepared on first use.
   */
  let writes: ReturnType<typeof prepareWrites> | undefined;
  function prepareWrites() {
    const { data } = deps;
    const { rateLimit } = data.entities;
    return {
      fromFull: data.prepareUpdate({ bucket: 'string', tat: 'number', ttl: 'number', now: 'number' }, (v) =>
        rateLimit
          .update({ bucket: v.bucket })
          .set({ tat: v.tat, ttl: v.ttl })
          .where(({ tat }, { notExists, lte }) => `${notExists(tat)} OR ${lte(tat, v.now)}`)
          .params({ response: 'none' }),
      ),
      fromDraining: data.prepareUpdate({ bucket: 'string', emission: 'number', ttl: 'number', now: 'number', upTo: 'number' }, (v) =>
        rateLimit
          .update({ bucket: v.bucket })
          .add({ tat: v.emission })
          .set({ ttl: v.ttl })
          .where(({ tat }, { gt, lte }) => `${gt(tat, v.now)} AND ${lte(tat, v.upTo)}`)
          .params({ response: 'none' }),
      ),
    };
  }

  /** Refused: seconds until a token is sure. */
  async function takeFromTable(bucket: string, now: number, timing: BucketTiming): Promise<number | undefined> {
    const prepared = (writes ??= prepareWrites());
    const ttl = Math.ceil((now + timing.toleranceMs + timing.emissionMs) / 1000) + 60;
    const fromFull = () => writeItem(() => prepared.fromFull({ bucket, tat: now + timing.emissionMs, ttl, now }));
    const fromDraining = () => writeItem(() => prepared.fromDraining({ bucket, emission: timing.emissionMs, ttl, now, upTo: now + timing.toleranceMs }));
    // Most buckets are idle (full) when a caller comes; one that was seen draining is likely still so.
    const seenDraining = (remembered.get(bucket) ?? 0) > now;
    const [first, second] = seenDraining ? [fromDraining, fromFull] : [fromFull, fromDraining];
    const taken = (await first()).written || (await second()).written;
    remember(bucket, taken ? now + timing.emissionMs : now + timing.toleranceMs + timing.emissionMs);
    return taken ? undefined : retryAfterSeconds(timing);
  }

  /** Takes a token for `caller` from `limit`'s bucket: undefined when taken (or limits are off), else seconds to wait. */
  async function takeFrom(limit: RateLimit, caller: string): Promise<number | undefined> {
    if (scale === 0) return undefined;
    const bucket = `${limit.name}#${caller}`;
    const timing = bucketTiming(limit, scale);
    const now = deps.clock.now().getTime();
    try {
      return limit.store === 'container' ? takeFromContainer(bucket, now, timing) : await takeFromTable(bucket, now, timing);
    } catch (error) {
      logger.warn('Rate limit not applied', { limit: limit.name, error });
      return undefined;
    }
  }

  return {
    /** Takes a token for `caller` from `limit`'s bucket; throws 429 when there is none. RATE_LIMIT_SCALE 0: no limits. */
    async take(limit: RateLimit, caller: string): Promise<void> {
      const refusedFor = await takeFrom(limit, caller);
      if (refusedFor === undefined) return;
      metrics.rateLimited(limit.name);
      throw new TooManyRequestsError(limit.message, refusedFor);
    },
    /** Takes a token when there is one, never refusing: marks a caller (a failed login) for a limit that gates elsewhere. */
    async spend(limit: RateLimit, caller: string): Promise<void> {
      await takeFrom(limit, caller);
    },
    /** Fills a caller's bucket again (a successful login forgives the failed attempts before it). */
    async refill(limit: RateLimit, caller: string): Promise<void> {
      if (scale === 0) return;
      const bucket = `${limit.name}#${caller}`;
      remembered.delete(bucket);
      if (limit.store !== 'table') return;
      await writeItem(() => deps.data.entities.rateLimit.delete({ bucket }).go()).catch((error: unknown) =>
        logger.warn('Rate limit not refilled', { limit: limit.name, error }),
      );
    },
  };
}
