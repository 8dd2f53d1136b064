const DAY_MS = 86_400_000;

/** A UTC calendar day as `YYYY-MM-DD`: how the daily counts and event partitions name days. */
export const dayOf = (date: Date): string => date.toISOString().slice(0, 10);

export const addDays = (day: string, days: number): string => dayOf(new Date(Date.parse(`${day}T00:00:00.000Z`) + days * DAY_MS));

/** Every day from `from` to `to`, both included, oldest first. */
export function daysFrom(from: string, to: string): string[] {
  const days: string[] = [];
  for (let day = from; day <= to; day = addDays(day, 1)) days.push(day);
  return days;
}

/** True for a real calendar day written `YYYY-MM-DD` (`2026-02-30` is not one). */
export const isDay = (text: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00.000Z`)) && dayOf(new Date(`${text}T00:00:00.000Z`)) === text;

/** The first instant of a day as an ISO timestamp. */
export const dayStart = (day: string): string => `${day}T00:00:00.000Z`;
