import { strFromU8, unzipSync, type UnzipFileInfo } from 'fflate';

/**
 * The version a release ZIP names, read in the browser before anything is uploaded, by the service's rule (DECISIONS
 * §22; shared/catalog/releases/readme/zip-readme.ts): the `Version:` header of the plugin's main PHP file (a `.php`
 * at the root or one folder down with `Plugin Name:`, the one named after its folder first), else of a theme's
 * style.css (with `Theme Name:`), else readme.txt's `Stable tag`. Undefined when it names none, or when the archive
 * is too large to read here or unreadable: the service reads it then.
 */
export async function zipVersion(file: File): Promise<string | undefined> {
  if (file.size > MAX_READ_BYTES) return undefined;
  let entries: Record<string, Uint8Array>;
  try {
    // Synchronously: fflate's asynchronous unzip starts workers from blob: URLs, which the dashboard's
    // Content-Security-Policy refuses. Only the few small files wanted are inflated, so it is quick.
    entries = unzipSync(new Uint8Array(await file.arrayBuffer()), { filter: wanted });
  } catch {
    return undefined;
  }
  const texts = Object.entries(entries).map(([name, bytes]) => ({ name, text: strFromU8(bytes.subarray(0, HEADER_BYTES)), full: bytes }));
  const plugins = texts.filter(({ name }) => name.toLowerCase().endsWith('.php')).sort((a, b) => pluginFileOrder(a.name, b.name));
  for (const { text } of plugins) {
    if (fileHeader(text, 'Plugin Name')) return fileHeader(text, 'Version');
  }
  const style = shallowest(texts.filter(({ name }) => baseName(name) === 'style.css'));
  if (style && fileHeader(style.text, 'Theme Name')) {
    const version = fileHeader(style.text, 'Version');
    if (version) return version;
  }
  const readme = shallowest(texts.filter(({ name }) => baseName(name) === 'readme.txt'));
  return readme ? stableTag(strFromU8(readme.full)) : undefined;
}

/** Archives larger than this are left to the service: reading one here would hold all of it in memory. */
const MAX_READ_BYTES = 64 * 1024 * 1024;
/** Entries larger than this are not inflated (the service's limit for the files it reads). */
const MAX_ENTRY_BYTES = 512 * 1024;
/** WordPress reads headers from a file's first 8 KiB. */
const HEADER_BYTES = 8 * 1024;

const depthOf = (name: string) => name.split('/').length - 1;
const baseName = (name: string) => name.split('/').at(-1)!.toLowerCase();

/** Only the files the rule reads, at most one folder down: the rest of the archive is never inflated. */
const wanted = (entry: UnzipFileInfo) =>
  depthOf(entry.name) <= 1 && entry.originalSize <= MAX_ENTRY_BYTES && /(\.php|\/style\.css|^style\.css|readme\.txt)$/i.test(entry.name);

function shallowest<T extends { name: string }>(found: T[]): T | undefined {
  return found.reduce<T | undefined>((best, entry) => (!best || depthOf(entry.name) < depthOf(best.name) ? entry : best), undefined);
}

/** The plugin's main file is usually named after its folder (`my-plugin/my-plugin.php`): those are read first. */
function pluginFileOrder(a: string, b: string): number {
  const namedAfterFolder = (name: string) => {
    const parts = name.toLowerCase().split('/');
    return parts.length === 2 && parts[1] === `${parts[0]}.php` ? 0 : 1;
  };
  return namedAfterFolder(a) - namedAfterFolder(b) || depthOf(a) - depthOf(b) || a.localeCompare(b);
}

/** A `Name: value` header of a file's leading comment, as WordPress's `get_file_data` reads it. */
function fileHeader(text: string, name: string): string | undefined {
  const head = text.replace(/\r\n?/g, '\n');
  const match = head.match(new RegExp(`^(?:[ \\t]*<\\?php)?[ \\t/*#@]*${name}:(.*)$`, 'mi'));
  return match?.[1]!.replace(/\s*(?:\*\/|\?>).*$/, '').trim() || undefined;
}

/** readme.txt's `Stable tag`, unless it names no version (`trunk`). */
function stableTag(readme: string): string | undefined {
  const tag = readme.match(/^[ \t*]*Stable tag:(.*)$/im)?.[1]!.replace(/[*\s]+$/, '').trim();
  return tag && tag.toLowerCase() !== 'trunk' && /\d/.test(tag) ? tag : undefined;
}
