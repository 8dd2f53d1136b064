import { StringDecoder } from 'node:string_decoder';
import { FileProblem } from './file-problem.js';

const OPEN = new Set(['{', '[']);
/** What may stand between documents: JSON's whitespace, and a byte-order mark. */
const BETWEEN = new Set([' ', '\n', '\r', '\t', '\uFEFF']);

/**
 * The JSON documents of a file, one at a time as it streams in: one document (pretty-printed or not), documents one
 * per line (JSON Lines), or documents one after another; a top-level array is read as its elements, each a document.
 * Only one document is held at a time.
 */
export async function* jsonDocuments(input: AsyncIterable<Buffer | string>): AsyncGenerator<unknown> {
  const decoder = new StringDecoder('utf8');
  let parts: string[] = [];
  let depth = 0;
  let inString = false;
  let escaped = false;
  let read = 0;
  const finished = (text: string): unknown[] => {
    read++;
    let document: unknown;
    try {
      document = JSON.parse(text);
    } catch (error) {
      throw new FileProblem(`Document ${read} of the file is not valid JSON: ${(error as Error).message}`);
    }
    return Array.isArray(document) ? document : [document];
  };
  for await (const chunk of input) {
    const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    let start = depth > 0 ? 0 : -1;
    for (let at = 0; at < text.length; at++) {
      const char = text[at]!;
      if (inString) {
        if (escaped) escaped = false;
        else if (char === '\\') escaped = true;
        else if (char === '"') inString = false;
        continue;
      }
      if (depth === 0) {
        if (OPEN.has(char)) {
          start = at;
          depth = 1;
        } else if (!BETWEEN.has(char)) {
          throw new FileProblem(read === 0 && !text.slice(0, at).trim() ? 'The file is not JSON: it does not start with { or [' : `The file has "${char}" after document ${read}, where a JSON document or nothing should follow`);
        }
        continue;
      }
      if (char === '"') inString = true;
      else if (OPEN.has(char)) depth++;
      else if (char === '}' || char === ']') {
        depth--;
        if (depth === 0) {
          parts.push(text.slice(start, at + 1));
          const documents = finished(parts.join(''));
          parts = [];
          start = -1;
          yield* documents;
        }
      }
    }
    if (depth > 0) parts.push(text.slice(Math.max(start, 0)));
  }
  if (depth > 0) throw new FileProblem(`The file ends inside JSON document ${read + 1}`);
  if (read === 0) throw new FileProblem('The file is empty');
}
