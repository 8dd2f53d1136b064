import { FileProblem } from './file-problem.js';

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

/**
 * The file as it streams in, refused with `NOT_TEXT` (a `FileProblem`) when a NUL byte comes within its first bytes:
 * such a file is no CSV or JSON Lines export.
 */
export async function* textOnly<Chunk extends Buffer | string>(input: AsyncIterable<Chunk>): AsyncGenerator<Chunk> {
  let seen = 0;
  for await (const chunk of input) {
    const start = chunk.slice(0, Math.max(0, SNIFFED - seen));
    if (typeof start === 'string' ? start.includes('\u0000') : start.includes(0)) throw new FileProblem(NOT_TEXT);
    seen += chunk.length;
    yield chunk;
  }
}

/** `message` with each quoted value that holds unreadable characters named instead, and any other such character dropped. */
export function readable(message: string): string {
  return message.replace(/"[^"]*"/g, (quoted) => (UNREADABLE.test(quoted) ? 'a value with unreadable characters' : quoted)).replace(UNREADABLE_ALL, '');
}
