/**
 * What an import tells a person stays readable (issue 48): a file that is not text fails with a sentence rather than a
 * quote of its bytes, and a value quoted in a message that holds characters no one can read is named, not shown.
 */

/** Controls but tab and line ends, DEL, the C1 controls, and U+FFFD (a byte that was not UTF-8). */
const UNREADABLE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFD]/;
const UNREADABLE_ALL = new RegExp(UNREADABLE.source, 'g');

/** How far into a file the text check looks: a spreadsheet or an archive has a NUL byte within its first bytes. */
const SNIFFED = 4096;

export const NOT_TEXT =
  'The file is not a text file (a spreadsheet or an archive, perhaps): export the licenses as CSV, or the account as JSON Lines, and choose that file';

/** A file that holds a NUL byte near its start is not a CSV or JSON Lines export. */
export const isBinary = (text: string) => text.slice(0, SNIFFED).includes('\u0000');

/** `message` with each quoted value that holds unreadable characters named instead, and any other such character dropped. */
export function readable(message: string): string {
  return message.replace(/"[^"]*"/g, (quoted) => (UNREADABLE.test(quoted) ? 'a value with unreadable characters' : quoted)).replace(UNREADABLE_ALL, '');
}
