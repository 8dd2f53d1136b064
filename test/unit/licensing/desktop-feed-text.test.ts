import { createRequire } from 'node:module';
import fc from 'fast-check';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { yamlString } from '../../../shared/licensing/updates/feeds/electron.js';
import { xmlText } from '../../../shared/licensing/updates/feeds/sparkle.js';

/** electron-updater's own YAML parser (its dependency js-yaml), which reads the channel files. */
const { load } = createRequire(import.meta.url)('js-yaml') as { load: (text: string) => unknown };

const TRICKY = [
  'Fixed: "quotes", \'apostrophes\' & <tags>',
  'line one\nline two\r\n- not a list item\n# not a comment',
  'key: value',
  '{flow: mapping}',
  '[a, b]',
  '*alias &anchor !tag |literal >folded %directive @reserved `tick`',
  'yes',
  '0x1F',
  '1.10',
  'null',
  '~',
  'next\u0085line',
  'line\u2028separator\u2029paragraph',
  'del\u007f and c1 \u0090',
  '\ufeffbom',
  'emoji 🚀 and accents éü',
  'tab\there',
  '',
];

describe('channel-file YAML strings', () => {
  it('reads back as the same text in electron-updater, however tricky', () => {
    for (const text of TRICKY) expect(load(`notes: ${yamlString(text)}\nafter: 1`), JSON.stringify(text)).toEqual({ notes: text, after: 1 });
  });

  it('reads back as the same text for any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (text) => {
        expect(load(`notes: ${yamlString(text)}\nafter: 1`)).toEqual({ notes: text, after: 1 });
      }),
      { numRuns: 200 },
    );
  });
});

describe('appcast XML text', () => {
  const parser = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '@', parseTagValue: false, parseAttributeValue: false, trimValues: false });

  it('keeps the document well-formed and reads back as the text, in content and in attributes', () => {
    for (const text of TRICKY.filter((t) => t !== '')) {
      const xml = `<item note="${xmlText(text)}">${xmlText(text)}</item>`;
      expect(XMLValidator.validate(xml), JSON.stringify(text)).toBe(true);
      const item = parser.parse(xml).item;
      // XML parsers normalize line ends in content; attributes here carry them as read.
      expect(item['#text'].replace(/\r\n/g, '\n'), JSON.stringify(text)).toBe(text.replace(/\r\n/g, '\n'));
      expect(item['@note'].replace(/\r\n/g, '\n')).toBe(text.replace(/\r\n/g, '\n'));
    }
  });

  it('drops the characters XML 1.0 does not allow', () => {
    expect(xmlText('a\u0000b\u0008c\u001fd\ufffee\ud800f')).toBe('abcdef');
    expect(XMLValidator.validate(`<a>${xmlText('bell\u0007 & lone \udc00')}</a>`)).toBe(true);
  });
});
