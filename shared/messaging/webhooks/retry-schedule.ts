/** Delays before each retry (DECISIONS §7): 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h. */
export const RETRY_DELAYS_SECONDS = [5, 5 * 60, 30 * 60, 2 * 3600, 5 * 3600, 10 * 3600, 10 * 3600] as const;

/** One first attempt plus one per retry delay. */
export const MAX_ATTEMPTS = RETRY_DELAYS_SECONDS.length + 1;

const JITTER = 0.2;

/**
 * Whole seconds to wait after failed attempt number `attempt` (1-based), or null when that was the last.
 * Each delay is spread ±20% so that a receiver's outage does not bring every retry back at once, and
 * multiplied by `scale` (WEBHOOK_RETRY_SCALE). Whole seconds, at least one: SQS visibility timeouts are.
 */
export function retryDelaySeconds(attempt: number, scale: number, random: () => number = Math.random): number | null {
  const base = RETRY_DELAYS_SECONDS[attempt - 1];
  if (base === undefined) return null;
  const spread = 1 + JITTER * (2 * random() - 1);
  return Math.max(1, Math.ceil(base * spread * scale));
}
