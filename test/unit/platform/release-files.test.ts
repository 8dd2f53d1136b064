import { describe, expect, it } from 'vitest';
import { isProductFilePath, isZipArchive, newReleaseFilePath, sanitizeFileName } from '../../../shared/catalog/releases/file-rules.js';
import { parseUploadForm } from '../../../shared/catalog/releases/upload-form.js';

const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]);

describe('release file rules', () => {
  it('recognizes ZIP archives by their first bytes only', () => {
    expect(isZipArchive(ZIP)).toBe(true);
    expect(isZipArchive(Buffer.from([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]))).toBe(true);
    expect(isZipArchive(Buffer.from('PK'))).toBe(false);
    expect(isZipArchive(Buffer.from('%PDF-1.7'))).toBe(false);
    expect(isZipArchive(new Uint8Array())).toBe(false);
  });

  it('sanitizes file names to a safe last segment', () => {
    expect(sanitizeFileName('my-plugin.zip')).toBe('my-plugin.zip');
    expect(sanitizeFileName('../../etc/passwd')).toBe('passwd');
    expect(sanitizeFileName('C:\\Users\\me\\Plugin Pro (2).zip')).toBe('Plugin-Pro-2-.zip');
    expect(sanitizeFileName('Café "quoted".zip')).toBe('Cafe-quoted-.zip');
    expect(sanitizeFileName('.htaccess')).toBe('htaccess');
    expect(sanitizeFileName('...')).toBe('release.zip');
    expect(sanitizeFileName('')).toBe('release.zip');
    expect(sanitizeFileName(`${'a'.repeat(300)}.zip`)).toMatch(/^a{116}\.zip$/);
  });

  it('accepts only paths under the product prefix, one random segment deep', () => {
    const path = newReleaseFilePath('usr_a', 'prd_b', 'x.zip');
    expect(path).toMatch(/^releases\/usr_a\/prd_b\/[a-z2-7]{16}\/x\.zip$/);
    expect(isProductFilePath(path, 'usr_a', 'prd_b')).toBe(true);
    expect(isProductFilePath(path, 'usr_a', 'prd_c')).toBe(false);
    expect(isProductFilePath(path, 'usr_z', 'prd_b')).toBe(false);
    expect(isProductFilePath('releases/usr_a/prd_b/x.zip', 'usr_a', 'prd_b')).toBe(false);
    expect(isProductFilePath('releases/usr_a/prd_b/../prd_c/x.zip', 'usr_a', 'prd_b')).toBe(false);
    expect(isProductFilePath('releases/usr_a/prd_b/r//x.zip', 'usr_a', 'prd_b')).toBe(false);
  });
});

function multipart(parts: { name: string; value: string | Buffer; fileName?: string }[]) {
  const boundary = 'test-boundary';
  const chunks = parts.flatMap(({ name, value, fileName }) => [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${fileName ? `; filename="${fileName}"` : ''}\r\n` +
        `${fileName ? 'Content-Type: application/zip\r\n' : ''}\r\n`,
    ),
    Buffer.isBuffer(value) ? value : Buffer.from(value),
    Buffer.from('\r\n'),
  ]);
  return { contentType: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]) };
}

/** The form of `body` as the route reads it, with a file limit of 100 bytes and a body limit of 1,100. */
const parse = (contentType: string | undefined, body: Buffer, contentLength = String(body.length)) =>
  parseUploadForm({ contentType, contentLength }, body, { fileBytes: 100, bodyBytes: 1100 });

describe('parseUploadForm', () => {
  it('reads the file and the version', async () => {
    const { contentType, body } = multipart([{ name: 'version', value: '1.2.3' }, { name: 'file', value: ZIP, fileName: 'p.zip' }]);
    const form = await parse(contentType, body);
    expect(form).toEqual({ file: { name: 'p.zip', bytes: ZIP }, version: '1.2.3' });
  });

  it('refuses a body over its limit with 413 by its declared length, before reading it', async () => {
    const declared = multipart([{ name: 'file', value: ZIP, fileName: 'p.zip' }]);
    await expect(parse(declared.contentType, declared.body, '1101')).rejects.toMatchObject({ statusCode: 413, message: expect.stringMatching(/use an upload URL/) });
    // Not even the content type is looked at: the size alone decides.
    await expect(parse('text/plain', Buffer.alloc(10), '5000000')).rejects.toMatchObject({ statusCode: 413 });
    await expect(parse(declared.contentType, Buffer.concat([declared.body, Buffer.alloc(1100)]), '')).rejects.toMatchObject({ statusCode: 413 });
    expect((await parse(declared.contentType, declared.body, '1100')).file.bytes).toEqual(ZIP);
  });

  it('accepts a file of exactly the limit and refuses one byte more with 413', async () => {
    const exact = multipart([{ name: 'file', value: Buffer.alloc(100), fileName: 'p.zip' }]);
    expect((await parse(exact.contentType, exact.body)).file.bytes.length).toBe(100);
    const over = multipart([{ name: 'file', value: Buffer.alloc(101), fileName: 'p.zip' }]);
    await expect(parse(over.contentType, over.body)).rejects.toMatchObject({ statusCode: 413 });
  });

  it('refuses other content types (415), a missing file, extra fields, two files and garbage (400)', async () => {
    await expect(parse('application/json', Buffer.from('{}'))).rejects.toMatchObject({ statusCode: 415 });
    await expect(parse(undefined, Buffer.alloc(0))).rejects.toMatchObject({ statusCode: 415 });
    const cases: [ReturnType<typeof multipart>, string][] = [
      [multipart([{ name: 'version', value: '1.0' }]), 'file is required'],
      [multipart([{ name: 'file', value: ZIP, fileName: 'a.zip' }, { name: 'notes', value: 'x' }]), 'Unknown field: notes'],
      [multipart([{ name: 'upload', value: ZIP, fileName: 'a.zip' }]), 'Unknown field: upload'],
      [multipart([{ name: 'file', value: ZIP, fileName: 'a.zip' }, { name: 'file', value: ZIP, fileName: 'b.zip' }]), 'Only one file may be uploaded'],
    ];
    for (const [{ contentType, body }, error] of cases) {
      await expect(parse(contentType, body)).rejects.toMatchObject({ statusCode: 400, message: error });
    }
    await expect(parse('multipart/form-data; boundary=x', Buffer.from('not multipart at all'))).rejects.toMatchObject({
      statusCode: 400,
    });
  });
});
