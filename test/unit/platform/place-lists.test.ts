import { describe, expect, it } from 'vitest';
import { COUNTRIES, COUNTRY_CODES as OFFERED, isTimeZone, TIME_ZONES } from '../../../dashboard/src/components/places.js';
import { COUNTRY_CODES as TAKEN, countryCode, timeZone } from '../../../shared/platform/http/places.js';

/** The dashboard's country and time zone lists (issue 48) offer exactly what the service takes (DECISIONS §22). */
describe('the dashboard’s place lists', () => {
  it('offers every country code the service takes, and no other', () => {
    expect([...OFFERED].sort()).toEqual([...TAKEN].sort());
    expect(COUNTRIES.find((country) => country.code === 'NL')?.name).toBe('Netherlands');
  });

  it('offers only time zones the service takes, and checks a typed one as the service does', () => {
    for (const zone of TIME_ZONES) expect(timeZone.safeParse(zone).success, zone).toBe(true);
    expect(TIME_ZONES).toContain('Europe/Amsterdam');
    for (const typed of ['Europe/Amsterdam', 'UTC', 'Mars/Phobos', '+01:00']) expect(isTimeZone(typed), typed).toBe(timeZone.safeParse(typed).success);
    expect(countryCode.safeParse('nl').data).toBe('NL');
  });
});
