import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { MAX_README_BYTES, readmeFromZip, type ByteRanges } from '../../../shared/catalog/releases/readme/zip-readme.js';
import { pluginZip } from '../../support/plugin-zip.js';

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
