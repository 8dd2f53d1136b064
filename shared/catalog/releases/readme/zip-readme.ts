import { PassThrough, type Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { pluginVersion, themeVersion } from './file-headers.js';

/** A readme.txt larger than this is not read: no real one comes near it. */
export const MAX_README_BYTES = 512 * 1024;
/** A PHP file or style.css larger than this is not read for its headers: a main plugin file is far smaller. */
export const MAX_HEADER_FILE_BYTES = 512 * 1024;
/** PHP files read, at most, in search of the plugin's main file (the one named after its folder first). */
export const MAX_PLUGIN_FILE_CANDIDATES = 20;

/** Reads `[start, end)` of the archive: a range of the stored object. */
export type ByteRanges = (start: number, end: number) => Promise<Readable>;

/** What a release ZIP says of itself: its readme.txt, and (when asked) the version its plugin or theme header names. */
export type ZipContents = { readme?: string; headerVersion?: string };

/**
 * yauzl's reader over ranges fetched on demand: only the directory and the entries read are fetched, not the whole ZIP.
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

/** How deep an entry sits: 0 at the root, 1 one folder down (`my-plugin/readme.txt`), where WordPress ZIPs hold files. */
const depthOf = (fileName: string) => fileName.split('/').length - 1;
const baseName = (fileName: string) => fileName.split('/').at(-1)!.toLowerCase();

/** The shallowest of two entries (at most one folder down), the first found on a tie. */
function shallower(found: yauzl.Entry | undefined, entry: yauzl.Entry): yauzl.Entry {
  return !found || depthOf(entry.fileName) < depthOf(found.fileName) ? entry : found;
}

/** The plugin's main file is usually named after its folder (`my-plugin/my-plugin.php`): those are read first. */
function pluginFileOrder(a: yauzl.Entry, b: yauzl.Entry): number {
  const namedAfterFolder = (entry: yauzl.Entry) => {
    const parts = entry.fileName.toLowerCase().split('/');
    return parts.length === 2 && parts[1] === `${parts[0]}.php` ? 0 : 1;
  };
  return namedAfterFolder(a) - namedAfterFolder(b) || depthOf(a.fileName) - depthOf(b.fileName) || a.fileName.localeCompare(b.fileName);
}

/**
 * Reads a release ZIP where it is stored: its `readme.txt` (any case, at the root, else one folder down), and with
 * `headerVersion` the version its own headers name (DECISIONS §22): the `Version:` of the plugin's main PHP file (a
 * `.php` file at the root or one folder down with a `Plugin Name:` header), else of a theme's `style.css` (with
 * `Theme Name:`). An archive yauzl cannot read (not a real ZIP, a damaged one) says nothing: the release is still
 * accepted, as any ZIP is. A failure to read storage is thrown (the release is not created, as when its file cannot
 * be checked).
 */
export async function readReleaseZip(size: number, ranges: ByteRanges, { headerVersion }: { headerVersion: boolean }): Promise<ZipContents> {
  const reader = new RangeReader(ranges);
  const unreadable = (): ZipContents => {
    if (reader.storageFailure !== undefined) throw reader.storageFailure;
    return {};
  };
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromRandomAccessReaderPromise(reader, size, { lazyEntries: true, autoClose: false });
  } catch {
    return unreadable();
  }
  const text = async (entry: yauzl.Entry) => (await buffer(await zip.openReadStreamPromise(entry))).toString('utf8');
  try {
    let readme: yauzl.Entry | undefined;
    let style: yauzl.Entry | undefined;
    const phpFiles: yauzl.Entry[] = [];
    for await (const entry of zip.eachEntry()) {
      if (depthOf(entry.fileName) > 1) continue;
      const name = baseName(entry.fileName);
      if (name === 'readme.txt' && entry.uncompressedSize <= MAX_README_BYTES) readme = shallower(readme, entry);
      if (!headerVersion || entry.uncompressedSize > MAX_HEADER_FILE_BYTES) continue;
      if (name === 'style.css') style = shallower(style, entry);
      else if (name.endsWith('.php')) phpFiles.push(entry);
    }
    const contents: ZipContents = readme ? { readme: await text(readme) } : {};
    if (!headerVersion) return contents;
    for (const entry of phpFiles.sort(pluginFileOrder).slice(0, MAX_PLUGIN_FILE_CANDIDATES)) {
      const plugin = pluginVersion(await text(entry));
      if (plugin.isPlugin) return { ...contents, ...(plugin.version && { headerVersion: plugin.version }) };
    }
    const theme = style && themeVersion(await text(style));
    return { ...contents, ...(theme && { headerVersion: theme }) };
  } catch {
    return unreadable();
  } finally {
    zip.close();
  }
}
