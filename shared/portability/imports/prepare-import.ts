import type { EntityItem } from '../../platform/data/index.js';
import type { Deps } from '../../platform/index.js';
import type { StorageDeps } from '../../platform/storage/index.js';
import { FileProblem } from './file-problem.js';
import { importFormat } from './formats.js';
import { readUsersFile } from './formats/woocommerce.js';
import { openImportFile, PREPARED_CHUNK_ROWS, preparedChunkKey, putPreparedChunk, readPreparedChunk } from './import-files.js';
import { textOnly } from './readable.js';
import type { LicenseCandidate } from './rows.js';

/**
 * A row as the batches read it back: a license to import; a row left out, with the reason the vendor is told (`null`:
 * its key came in an earlier row, skipped as a key that exists); or a bad row. Rows that are no license (a totals
 * line) are not prepared.
 */
export type PreparedRow = { row: number; license: LicenseCandidate } | { row: number; skipped: string | null } | { row: number; error: string };

/** Chunks sent at once while the file is read: the next rows are read while they are on their way. */
const CHUNKS_IN_FLIGHT = 3;

/** Writes prepared rows into chunks of `PREPARED_CHUNK_ROWS`, each sent as it fills: memory holds a few chunks. */
function chunkWriter(deps: StorageDeps, fileKey: string) {
  let lines: string[] = [];
  let count = 0;
  const sending = new Set<Promise<void>>();
  const send = async () => {
    if (lines.length === 0) return;
    const put = putPreparedChunk(deps, preparedChunkKey(fileKey, Math.floor((count - 1) / PREPARED_CHUNK_ROWS)), `${lines.join('\n')}\n`);
    lines = [];
    const tracked = put.finally(() => sending.delete(tracked));
    sending.add(tracked);
    // Its failure reaches the reader through the race or the end; none may come if reading fails first.
    tracked.catch(() => undefined);
    if (sending.size >= CHUNKS_IN_FLIGHT) await Promise.race(sending);
  };
  return {
    async add(row: PreparedRow) {
      lines.push(JSON.stringify(row));
      count++;
      if (lines.length === PREPARED_CHUNK_ROWS) await send();
    },
    async end() {
      await send();
      await Promise.all(sending);
      return count;
    },
  };
}

type Job = EntityItem<'importJob'>;

/**
 * Reads the import's file once, as it streams in, in its format (with the users file of a `woocommerce` import), and
 * writes its rows prepared beside it; answers how many, or why the file cannot be read. Everything after reads the
 * prepared rows from where it is: an invocation that goes on with the import never reads the file again.
 */
export async function prepareImport(deps: StorageDeps & Pick<Deps, 'clock'>, job: Job): Promise<number | string> {
  const input = await openImportFile(deps, job.fileKey);
  if (!input) return 'The import file is gone';
  try {
    let users;
    if (job.usersFileKey) {
      const usersInput = await openImportFile(deps, job.usersFileKey);
      if (!usersInput) return 'The users file is gone';
      users = await readUsersFile(usersInput).catch((error: unknown) => {
        throw error instanceof FileProblem ? new FileProblem(`The users file: ${error.message}`) : error;
      });
    }
    const format = importFormat(job.format, { now: () => deps.clock.now(), timezone: job.timezone, productName: job.productName, users });
    const writer = chunkWriter(deps, job.fileKey);
    const keys = new Set<string>();
    for await (const result of format.read(textOnly(input))) {
      if ('ignored' in result) continue;
      if ('license' in result) {
        const key = result.license.licenseKey.trim();
        const repeated = keys.has(key);
        keys.add(key);
        await writer.add(repeated ? { row: result.row, skipped: null } : result);
      } else {
        await writer.add(result);
      }
    }
    return await writer.end();
  } catch (error) {
    if (error instanceof FileProblem) return error.message;
    throw error;
  }
}

/** The prepared rows of the chunk holding it are gone (they expire with the file): the import cannot go on. */
export class PreparedRowsGone extends Error {}

/**
 * The prepared rows from `from` on, one chunk read at a time, the next fetched while this one's rows are taken.
 */
export async function* preparedRows(deps: StorageDeps, fileKey: string, from: number, total: number): AsyncGenerator<PreparedRow> {
  const chunks = Math.ceil(total / PREPARED_CHUNK_ROWS);
  const fetch = (chunk: number) => (chunk < chunks ? readPreparedChunk(deps, preparedChunkKey(fileKey, chunk)) : Promise.resolve(undefined));
  let chunk = Math.floor(from / PREPARED_CHUNK_ROWS);
  let text = fetch(chunk);
  let skip = from % PREPARED_CHUNK_ROWS;
  while (chunk < chunks) {
    const current = await text;
    if (current === undefined) throw new PreparedRowsGone(`The prepared rows of the import are gone (chunk ${chunk})`);
    text = fetch(chunk + 1);
    // Handled if nobody awaits it: the generator may be left before the next chunk.
    text.catch(() => undefined);
    const lines = current.split('\n');
    for (let index = skip; index < lines.length; index++) if (lines[index]) yield JSON.parse(lines[index]!) as PreparedRow;
    skip = 0;
    chunk++;
  }
}
