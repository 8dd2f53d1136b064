import { unzipSync, strFromU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { closeEntry, finishZip, newZip, openEntry, writeEntry, type ZipState } from '../../../shared/portability/exports/zip-stream.js';

/** The state as a job item would keep it between two invocations: through JSON. */
const saved = (state: ZipState): ZipState => JSON.parse(JSON.stringify(state));

describe('resumable zip stream', () => {
  it('writes files in chunks, continued from saved state, that any unzip reads back', () => {
    let state = newZip(new Date('2026-03-04T05:06:08Z'));
    const parts: Buffer[] = [];
    const products = ['id,name\n', 'prd_1,Acme SEO\n', 'prd_2,Ünïcode "quoted"\n'];
    const licenses = Array.from({ length: 500 }, (_, i) => `lic_${i},KEY-${'X'.repeat(i % 40)}-${i}\n`);
    parts.push(openEntry(state, 'products.csv'));
    for (const chunk of products) {
      state = saved(state);
      parts.push(writeEntry(state, Buffer.from(chunk)));
    }
    parts.push(closeEntry(state), openEntry(state, 'licenses.csv'));
    for (let i = 0; i < licenses.length; i += 100) {
      state = saved(state);
      parts.push(writeEntry(state, Buffer.from(licenses.slice(i, i + 100).join(''))));
    }
    parts.push(writeEntry(state, Buffer.alloc(0)), closeEntry(state), openEntry(state, 'empty.csv'), closeEntry(state));
    state = saved(state);
    parts.push(finishZip(state));

    const archive = Buffer.concat(parts);
    expect(state.written).toBe(archive.length);
    const files = unzipSync(new Uint8Array(archive));
    expect(Object.keys(files)).toEqual(['products.csv', 'licenses.csv', 'empty.csv']);
    expect(strFromU8(files['products.csv']!)).toBe(products.join(''));
    expect(strFromU8(files['licenses.csv']!)).toBe(licenses.join(''));
    expect(files['empty.csv']!.length).toBe(0);
  });

  it('refuses to write outside an open file or to finish with one open', () => {
    const state = newZip(new Date());
    expect(() => writeEntry(state, Buffer.from('x'))).toThrow(/no file is open/);
    openEntry(state, 'a.csv');
    expect(() => openEntry(state, 'b.csv')).toThrow(/still open/);
    expect(() => finishZip(state)).toThrow(/still open/);
  });
});
