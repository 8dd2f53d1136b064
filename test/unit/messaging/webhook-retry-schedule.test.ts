import { describe, expect, it } from 'vitest';
import { MAX_ATTEMPTS, RETRY_DELAYS_SECONDS, retryDelaySeconds } from '../../../shared/messaging/webhooks/retry-schedule.js';

const middle = () => 0.5;

describe('webhook retry schedule', () => {
  it('waits about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h, then gives up after the 8th attempt', () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((attempt) => retryDelaySeconds(attempt, 1, middle))).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
    expect(retryDelaySeconds(8, 1, middle)).toBeNull();
    expect(MAX_ATTEMPTS).toBe(8);
  });

  it('spreads each delay by at most ±20%', () => {
    RETRY_DELAYS_SECONDS.forEach((base, index) => {
      expect(retryDelaySeconds(index + 1, 1, () => 0)).toBe(Math.ceil(base * 0.8));
      expect(retryDelaySeconds(index + 1, 1, () => 0.999999)).toBeLessThanOrEqual(Math.ceil(base * 1.2));
    });
  });

  it('scales every delay, in whole seconds of at least one', () => {
    expect(retryDelaySeconds(1, 0.0001, middle)).toBe(1);
    expect(retryDelaySeconds(7, 0.0001, middle)).toBe(4);
    expect(retryDelaySeconds(3, 0.5, middle)).toBe(900);
  });
});
