import { type FeedContext, fileFor, offeredRelease, platformFileUrl } from './feed-access.js';
import { ELECTRON_CHANNEL_FILES, type ElectronChannelFile } from './feed-values.js';

/**
 * What nothing to offer reads as: version 0.0.0 with no files, which electron-updater takes for "no update" (lower than
 * any app's) rather than an error on every check.
 */
const NOTHING_OFFERED = 'version: "0.0.0"\nfiles: []\n';

/**
 * A YAML scalar as a double-quoted string: JSON's escapes are YAML's, and the characters YAML reads as line breaks or
 * takes as unprintable in JSON's output (NEL, DEL and C1 controls, the Unicode line and paragraph separators, BOM)
 * are escaped too, so no text of a vendor (notes, file names) can end the scalar or add a key.
 */
export const yamlString = (text: string) =>
  JSON.stringify(text).replace(/[\u007f-\u009f\u2028\u2029\ufeff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`);

/**
 * An electron-updater channel file for the key (DECISIONS §26), as electron-builder writes it: `version`, `files` (url,
 * sha512, size) of the offered release's files for the channel file's platforms, the first as the legacy `path` and
 * `sha512`, `releaseDate`, and `releaseNotes` when the release has notes.
 */
export function electronChannelFile(context: FeedContext, name: ElectronChannelFile): string {
  const platforms = ELECTRON_CHANNEL_FILES[name];
  const release = offeredRelease(context, platforms);
  if (!release) return NOTHING_OFFERED;
  const files = platforms.flatMap((platform) => {
    const file = fileFor(release, platform);
    return file ? [{ url: platformFileUrl(context.request, release, file), sha512: file.sha512, size: file.fileSize }] : [];
  });
  const lines = [
    `version: ${yamlString(release.version)}`,
    'files:',
    ...files.flatMap((file) => [`  - url: ${yamlString(file.url)}`, `    sha512: ${yamlString(file.sha512)}`, `    size: ${file.size}`]),
    `path: ${yamlString(files[0]!.url)}`,
    `sha512: ${yamlString(files[0]!.sha512)}`,
    `releaseDate: ${yamlString(release.releasedAt ?? release.createdAt)}`,
    ...(release.releaseNotes ? [`releaseNotes: ${yamlString(release.releaseNotes)}`] : []),
  ];
  return `${lines.join('\n')}\n`;
}
