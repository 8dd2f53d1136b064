import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * A zip archive written as a stream of byte chunks whose whole state is a small JSON value, so that a writer stopped
 * between two chunks (a Lambda invocation running out of time) is continued by another from the saved state. Zip
 * libraries (fflate, archiver, yazl) keep their state in memory, in compressor objects that cannot be saved, which is
 * why this one is written here; it uses only what the format needs (APPNOTE 6.3: local headers with data descriptors,
 * deflate, a central directory; no Zip64, so an archive and each file stay under 4 GiB).
 *
 * Each chunk of a file is deflated on its own and ends with a sync flush (byte-aligned, not final); a later chunk
 * starts a fresh deflate stream, whose blocks simply follow. The file's data ends with an empty final block. The
 * result is one valid deflate stream per file, readable by any unzip.
 */

export type ZipEntry = { name: string; offset: number; crc: number; compressedSize: number; size: number };
export type ZipState = { written: number; entries: ZipEntry[]; open?: ZipEntry; dosTime: number; dosDate: number };

const FLAGS = 0x0008 | 0x0800; // sizes and CRC in a data descriptor after the data; UTF-8 names
const DEFLATE = 8;
const VERSION = 20;
const LIMIT = 0xffffffff;

export function newZip(at: Date): ZipState {
  return {
    written: 0,
    entries: [],
    dosTime: (at.getUTCHours() << 11) | (at.getUTCMinutes() << 5) | Math.floor(at.getUTCSeconds() / 2),
    dosDate: ((at.getUTCFullYear() - 1980) << 9) | ((at.getUTCMonth() + 1) << 5) | at.getUTCDate(),
  };
}

/** The bytes that open a file in the archive; the state then holds it open. */
export function openEntry(state: ZipState, name: string): Buffer {
  if (state.open) throw new Error(`zip: ${state.open.name} is still open`);
  const nameBytes = Buffer.from(name, 'utf8');
  const header = Buffer.alloc(30);
  header.writeUInt32LE(0x04034b50, 0);
  header.writeUInt16LE(VERSION, 4);
  header.writeUInt16LE(FLAGS, 6);
  header.writeUInt16LE(DEFLATE, 8);
  header.writeUInt16LE(state.dosTime, 10);
  header.writeUInt16LE(state.dosDate, 12);
  // CRC and sizes (14–25) stay 0: the data descriptor carries them.
  header.writeUInt16LE(nameBytes.length, 26);
  state.open = { name, offset: state.written, crc: 0, compressedSize: 0, size: 0 };
  return advance(state, Buffer.concat([header, nameBytes]));
}

/** The compressed bytes of `data`, the next part of the open file. */
export function writeEntry(state: ZipState, data: Buffer): Buffer {
  const entry = openOne(state);
  if (data.length === 0) return Buffer.alloc(0);
  const compressed = deflateRawSync(data, { finishFlush: constants.Z_SYNC_FLUSH });
  entry.crc = crc32(data, entry.crc);
  entry.size += data.length;
  entry.compressedSize += compressed.length;
  return advance(state, compressed);
}

/** The bytes that close the open file: the final deflate block and the data descriptor. */
export function closeEntry(state: ZipState): Buffer {
  const entry = openOne(state);
  const last = deflateRawSync(Buffer.alloc(0));
  entry.compressedSize += last.length;
  if (entry.size > LIMIT || entry.compressedSize > LIMIT) throw new Error(`zip: ${entry.name} is larger than 4 GiB`);
  const descriptor = Buffer.alloc(16);
  descriptor.writeUInt32LE(0x08074b50, 0);
  descriptor.writeUInt32LE(entry.crc, 4);
  descriptor.writeUInt32LE(entry.compressedSize, 8);
  descriptor.writeUInt32LE(entry.size, 12);
  state.entries.push(entry);
  delete state.open;
  return advance(state, Buffer.concat([last, descriptor]));
}

/** The central directory and its end record: the archive's last bytes. */
export function finishZip(state: ZipState): Buffer {
  if (state.open) throw new Error(`zip: ${state.open.name} is still open`);
  const start = state.written;
  const records = state.entries.map((entry) => {
    const nameBytes = Buffer.from(entry.name, 'utf8');
    const record = Buffer.alloc(46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(VERSION, 4);
    record.writeUInt16LE(VERSION, 6);
    record.writeUInt16LE(FLAGS, 8);
    record.writeUInt16LE(DEFLATE, 10);
    record.writeUInt16LE(state.dosTime, 12);
    record.writeUInt16LE(state.dosDate, 14);
    record.writeUInt32LE(entry.crc, 16);
    record.writeUInt32LE(entry.compressedSize, 20);
    record.writeUInt32LE(entry.size, 24);
    record.writeUInt16LE(nameBytes.length, 28);
    // Extra field, comment, disk number, attributes: none (30–41).
    record.writeUInt32LE(entry.offset, 42);
    return Buffer.concat([record, nameBytes]);
  });
  const directory = Buffer.concat(records);
  if (start + directory.length > LIMIT) throw new Error('zip: the archive is larger than 4 GiB');
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(state.entries.length, 8);
  end.writeUInt16LE(state.entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(start, 16);
  return advance(state, Buffer.concat([directory, end]));
}

function openOne(state: ZipState): ZipEntry {
  if (!state.open) throw new Error('zip: no file is open');
  return state.open;
}

function advance(state: ZipState, bytes: Buffer): Buffer {
  state.written += bytes.length;
  return bytes;
}
