import { describe, expect, it } from 'vitest';
import { fromMinorUnits, toMinorUnits } from '../../../shared/platform/minor-units.js';

describe('price in minor units', () => {
  it.each([
    [49.5, 'USD', 4950],
    [49, 'usd', 4900],
    [19.99, 'EUR', 1999],
    [0.29, 'GBP', 29],
    [999_999.99, 'USD', 99_999_999],
    [0, 'USD', 0],
    [4900, 'JPY', 4900],
    [49.5, 'JPY', 50],
    [15000, 'KRW', 15000],
    [12.34, 'KWD', 12340],
  ])('%d %s → %d', (price, currency, expected) => {
    expect(toMinorUnits(price, currency)).toBe(expected);
  });
});

describe('Stripe amounts in major units', () => {
  it.each([
    [4950, 'usd', 49.5],
    [1999, 'EUR', 19.99],
    [4900, 'JPY', 4900],
    [12340, 'KWD', 12.34],
    [0, 'USD', 0],
  ])('%d %s → %d', (amount, currency, expected) => {
    expect(fromMinorUnits(amount, currency)).toBe(expected);
  });
});
