import { describe, expect, it } from 'vitest';
import { FileProblem } from '../../../shared/portability/imports/file-problem.js';
import { NOT_TEXT, readable, textOnly } from '../../../shared/portability/imports/readable.js';

const read = async (chunks: Buffer[]) => {
  const seen: Buffer[] = [];
  for await (const chunk of textOnly((async function* () {
    yield* chunks;
  })())) seen.push(chunk);
  return Buffer.concat(seen).toString();
};

/** What an import says to a person holds no bytes they cannot read (issue 48). */
describe('readable import messages', () => {
  it('names a quoted value with unreadable characters instead of showing it, and keeps readable ones', () => {
    expect(readable('customer e-mail "a\u0000\uFFFDb@x" is not a valid e-mail address')).toBe('customer e-mail a value with unreadable characters is not a valid e-mail address');
    expect(readable('plan "pro" is not a plan of this product')).toBe('plan "pro" is not a plan of this product');
    expect(readable('The file has no license_key column (its header reads: PK\u0003\u0004\u0014)')).toBe('The file has no license_key column (its header reads: PK)');
  });

  it('refuses a binary file (a NUL byte near its start, in any chunk) and passes text through, accents included', async () => {
    await expect(read([Buffer.from('PK'), Buffer.from([3, 4, 0x14, 0, 8])])).rejects.toEqual(new FileProblem(NOT_TEXT));
    const text = 'license_key,customer_email\nKEY-1,zoë@example.com\n';
    expect(await read([Buffer.from(text)])).toBe(text);
  });
});
