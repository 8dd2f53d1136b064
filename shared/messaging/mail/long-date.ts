import { lazily } from '../../platform/index.js';

/**
 * Dates are written out in words, in UTC: "23 November 2026" reads the same in every locale. The formatter is made by
 * the first e-mail that writes a date: making one loads ICU's locale data, which took about 5 ms of the init of every
 * function that imports the e-mail templates when it was made at load (issue 26).
 */
const formatter = lazily(() => new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }));

/** An ISO timestamp as the e-mails write it. */
export const longDate = (iso: string): string => formatter().format(new Date(iso));
