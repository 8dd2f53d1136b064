import { PassThrough, type Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';

/** A readme.txt larger than this is not read: no real one comes near it. */
export const MAX_README_BYTES = 512 * 1024;

/** Reads `[start, end)` of the archive: a range of the stored object. */
export type ByteRanges = (start: number, end: number) => Promise<Readable>;

/**
 * yauzl's reader over ranges fetched on demand: only the directory and the one entry are read, not the whole ZIP.
 * A storage failure is kept apart from a malformed archive: it is the caller's to answer, not a ZIP without a readme.
 */
class RangeReader extends yauzl.RandomAccessReader {
  storageFailure: unknown;

  constructor(private readonly ranges: ByteRanges) {
    super();
  }

  override _readStreamForRange(start: number, end: number): Readable {
    const out = new PassThrough();
    if (end <= start) out.end();
    else
      this.ranges(start, end)
        .then((stream) => pipeline(stream, out))
        .catch((error: unknown) => {
          this.storageFailure ??= error;
          out.destroy(error as Error);
        });
    return out;
  }
}

/** `readme.txt` at the root, else one folder down (`my-plugin/readme.txt`), as WordPress plugin ZIPs hold it. */
function readmeDepth(fileName: string): number | undefined {
  const parts = fileName.split('/');
  if (parts.at(-1)!.toLowerCase() !== 'readme.txt' || parts.length > 2) return undefined;
  return parts.length - 1;
}

/**
 * The text of the archive's readme.txt, or undefined when it has none. An archive yauzl cannot read (not a real ZIP,
 * a damaged one) has none either: the release is still accepted, as any ZIP is, just without readme metadata. A
 * failure to read storage is thrown (the release is not created, as when its file cannot be checked).
 */
export async function readmeFromZip(size: number, ranges: ByteRanges): Promise<string | undefined> {
  const reader = new RangeReader(ranges);
  const unreadable = () => {
    if (reader.storageFailure !== undefined) throw reader.storageFailure;
    return undefined;
  };
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromRandomAccessReaderPromise(reader, size, { lazyEntries: true, autoClose: false });
  } catch {
    return unreadable();
  }
  try {
    let found: yauzl.Entry | undefined;
    for await (const entry of zip.eachEntry()) {
      const depth = readmeDepth(entry.fileName);
      if (depth === undefined || entry.uncompressedSize > MAX_README_BYTES) continue;
      if (!found || depth < readmeDepth(found.fileName)!) found = entry;
      if (depth === 0) break;
    }
    if (!found) return undefined;
    return (await buffer(await zip.openReadStreamPromise(found))).toString('utf8');
  } catch {
    return unreadable();
  } finally {
    zip.close();
  }
}
