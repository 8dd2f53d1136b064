import { PassThrough, type Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import yauzl from 'yauzl';

/** A readme.txt larger than this is not read: no real one comes near it. */
export const MAX_README_BYTES = 512 * 1024;

/** Reads `[start, end)` of the archive: a range of the stored object. */
export type ByteRanges = (start: number, end: number) => Promise<Readable>;

/** yauzl's reader over ranges fetched on demand: only the directory and the one entry are read, not the whole ZIP. */
class RangeReader extends yauzl.RandomAccessReader {
  constructor(private readonly ranges: ByteRanges) {
    super();
  }

  override _readStreamForRange(start: number, end: number): Readable {
    const out = new PassThrough();
    if (end <= start) out.end();
    else this.ranges(start, end).then((stream) => stream.on('error', (error) => out.destroy(error)).pipe(out), (error) => out.destroy(error));
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
 * a damaged one) has none either: the release is still accepted, as any ZIP is, just without readme metadata.
 */
export async function readmeFromZip(size: number, ranges: ByteRanges): Promise<string | undefined> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromRandomAccessReaderPromise(new RangeReader(ranges), size, { lazyEntries: true, autoClose: false });
  } catch {
    return undefined;
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
    return undefined;
  } finally {
    zip.close();
  }
}
