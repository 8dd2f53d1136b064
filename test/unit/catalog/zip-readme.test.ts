import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { fileHeader } from '../../../shared/catalog/releases/readme/file-headers.js';
import { MAX_README_BYTES, readReleaseZip, type ByteRanges } from '../../../shared/catalog/releases/readme/zip-readme.js';
import { pluginZip } from '../../support/plugin-zip.js';

/** The readme.txt text of a ZIP, as the release reads it. */
const readmeFromZip = async (size: number, ranges: ByteRanges) => (await readReleaseZip(size, ranges, { headerVersion: false })).readme;
/** The version the ZIP's plugin or theme header names. */
const headerVersionOf = async (zip: Buffer) => (await readReleaseZip(zip.length, rangesOf(zip).ranges, { headerVersion: true })).headerVersion;

/** Ranges of an archive held in memory, as storage would serve them, counting the bytes asked for. */
function rangesOf(bytes: Buffer) {
  const asked = { bytes: 0 };
  const ranges: ByteRanges = async (start, end) => {
    asked.bytes += end - start;
    return Readable.from([bytes.subarray(start, end)]);
  };
  return { ranges, asked };
}

describe('readme.txt in a release ZIP', () => {
  it('finds it at the root or one folder down, the root one first, and never deeper', async () => {
    const nested = await pluginZip({ 'my-plugin/my-plugin.php': '<?php', 'my-plugin/README.TXT': 'one down', 'my-plugin/docs/readme.txt': 'too deep' });
    expect(await readmeFromZip(nested.length, rangesOf(nested).ranges)).toBe('one down');
    const both = await pluginZip({ 'my-plugin/readme.txt': 'one down', 'readme.txt': 'root' });
    expect(await readmeFromZip(both.length, rangesOf(both).ranges)).toBe('root');
    const deep = await pluginZip({ 'a/b/readme.txt': 'too deep', 'a/readme.md': 'not it' });
    expect(await readmeFromZip(deep.length, rangesOf(deep).ranges)).toBeUndefined();
  });

  it('reads only the directory and the entry of a large archive', async () => {
    // Random text: it stays about a megabyte compressed.
    const big = await pluginZip({ 'my-plugin/readme.txt': '=== Big ===', 'my-plugin/vendor.txt': randomBytes(1_000_000).toString('base64') });
    expect(big.length).toBeGreaterThan(900_000);
    const { ranges, asked } = rangesOf(big);
    expect(await readmeFromZip(big.length, ranges)).toBe('=== Big ===');
    expect(asked.bytes).toBeLessThan(200_000);
  });

  it('gives nothing for an archive it cannot read or a readme over the limit, and throws what storage throws', async () => {
    const notZip = Buffer.concat([Buffer.from([0x50, 0x4b, 0x03, 0x04]), Buffer.alloc(300, 0x61)]);
    expect(await readmeFromZip(notZip.length, rangesOf(notZip).ranges)).toBeUndefined();
    const huge = await pluginZip({ 'readme.txt': 'a'.repeat(MAX_README_BYTES + 1) });
    expect(await readmeFromZip(huge.length, rangesOf(huge).ranges)).toBeUndefined();
    const zip = await pluginZip({ 'readme.txt': 'text' });
    const failure = Object.assign(new Error('Service Unavailable'), { name: 'ServiceUnavailable' });
    await expect(readmeFromZip(zip.length, async () => Promise.reject(failure))).rejects.toBe(failure);
  });
});

describe('the version a release ZIP names in its headers (DECISIONS §22)', () => {
  const header = (lines: string[]) => `<?php\n/**\n${lines.map((line) => ` * ${line}`).join('\n')}\n */\n`;

  it("reads the plugin's main PHP file, at the root or one folder down, the one named after its folder first", async () => {
    const nested = await pluginZip({
      'my-plugin/includes.php': '<?php // helpers',
      'my-plugin/other.php': header(['Plugin Name: Other', 'Version: 9.9.9']),
      'my-plugin/my-plugin.php': header(['Plugin Name: My Plugin', 'Version: 1.4.2', 'Requires PHP: 7.4']),
    });
    expect(await headerVersionOf(nested)).toBe('1.4.2');
    const root = await pluginZip({ 'main.php': header(['Plugin Name: Root', 'Version: 2.0.0-beta.1']), 'readme.txt': 'Stable tag: 1.0' });
    expect(await headerVersionOf(root)).toBe('2.0.0-beta.1');
    const deep = await pluginZip({ 'a/b/deep.php': header(['Plugin Name: Deep', 'Version: 3.0']) });
    expect(await headerVersionOf(deep)).toBeUndefined();
  });

  it("reads a theme's style.css when no PHP file is a plugin's", async () => {
    const theme = await pluginZip({
      'my-theme/functions.php': '<?php // no header',
      'my-theme/style.css': '/*\nTheme Name: My Theme\nVersion: 0.9.1\n*/\nbody {}',
    });
    expect(await headerVersionOf(theme)).toBe('0.9.1');
    const notTheme = await pluginZip({ 'assets/style.css': '/* Version: 5.0 */' });
    expect(await headerVersionOf(notTheme)).toBeUndefined();
  });

  it('does not look for it unless asked', async () => {
    const zip = await pluginZip({ 'p/p.php': header(['Plugin Name: P', 'Version: 1.0']) });
    expect(await readReleaseZip(zip.length, rangesOf(zip).ranges, { headerVersion: false })).toEqual({});
  });

  it('reads headers as WordPress does: comment marks, closing marks and case', () => {
    expect(fileHeader('<?php\n/*\nPlugin Name: A\n  * version:   1.2.3 */', 'Version')).toBe('1.2.3');
    expect(fileHeader('<?php # Plugin Name: Hashed ?>', 'Plugin Name')).toBe('Hashed');
    expect(fileHeader('<?php\n// Version:\n', 'Version')).toBeUndefined();
    expect(fileHeader(`${'x'.repeat(9000)}\nVersion: 1`, 'Version')).toBeUndefined();
  });
});
