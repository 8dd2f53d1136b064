/** The public surface of shared/platform/rate-limits: what the contexts and the functions use of it. */
export { RATE_LIMITS } from './limits.js';
export { createRateLimiter } from './rate-limiter.js';
export type { RateLimiter } from './rate-limiter.js';
