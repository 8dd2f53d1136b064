/** WordPress reads a plugin's or theme's headers from the first 8 KiB of the file (`get_file_data`). */
export const HEADER_BYTES = 8 * 1024;

/**
 * The value of a `Name: value` header in a file's leading comment, as WordPress's `get_file_data` reads it: the first
 * line naming it, after any comment marks (` * `, `#`, `//`), its value trimmed of a closing `*\/` or `?>`; undefined
 * when absent or empty.
 */
export function fileHeader(text: string, name: string): string | undefined {
  const head = text.slice(0, HEADER_BYTES).replace(/\r\n?/g, '\n');
  const escaped = name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const match = head.match(new RegExp(`^(?:[ \\t]*<\\?php)?[ \\t/*#@]*${escaped}:(.*)$`, 'mi'));
  const value = match?.[1]!.replace(/\s*(?:\*\/|\?>).*$/, '').trim();
  return value || undefined;
}

/** The version a plugin's main PHP file names (`Version:`), when the file is one (it has `Plugin Name:`). */
export function pluginVersion(text: string): { isPlugin: boolean; version?: string } {
  if (!fileHeader(text, 'Plugin Name')) return { isPlugin: false };
  return { isPlugin: true, version: fileHeader(text, 'Version') };
}

/** The version a theme's style.css names (`Version:`), when the file is a theme's (it has `Theme Name:`). */
export function themeVersion(text: string): string | undefined {
  return fileHeader(text, 'Theme Name') ? fileHeader(text, 'Version') : undefined;
}
