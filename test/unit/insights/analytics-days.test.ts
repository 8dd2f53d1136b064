import { describe, expect, it } from 'vitest';
import { addDays, dayOf, daysFrom, isDay } from '../../../shared/insights/analytics/days.js';

describe('analytics days', () => {
  it('name UTC calendar days', () => {
    expect(dayOf(new Date('2026-11-23T23:59:59.999Z'))).toBe('2026-11-23');
    expect(dayOf(new Date('2026-11-24T00:00:00.000Z'))).toBe('2026-11-24');
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-01-01', -1)).toBe('2025-12-31');
  });

  it('list a range with both ends, and nothing for a reversed one', () => {
    expect(daysFrom('2026-12-30', '2027-01-02')).toEqual(['2026-12-30', '2026-12-31', '2027-01-01', '2027-01-02']);
    expect(daysFrom('2026-01-02', '2026-01-01')).toEqual([]);
  });

  it('accept only real dates written YYYY-MM-DD', () => {
    for (const day of ['2026-11-23', '2028-02-29', '2000-01-01']) expect([day, isDay(day)]).toEqual([day, true]);
    for (const day of ['2026-02-30', '2027-02-29', '2026-13-01', '2026-1-01', '20261123', '2026-11-23T00:00:00Z', '']) {
      expect([day, isDay(day)]).toEqual([day, false]);
    }
  });
});
