import { describe, expect, it } from 'vitest';
import { jsonDocuments } from '../../../shared/portability/imports/json-documents.js';
import { FileProblem } from '../../../shared/portability/imports/file-problem.js';
import { placeholderEmail, RowProblem } from '../../../shared/portability/imports/rows.js';
import { activationLimit, isTimeZone, timestamp, unslashed } from '../../../shared/portability/imports/values.js';

describe("a store's local times (EDD, DECISIONS §27)", () => {
  it('read in its zone, daylight saving time included, dates and WordPress "timestamps" alike', () => {
    // New York: UTC−5 in winter, UTC−4 in summer.
    expect(timestamp('d', '2027-01-15 23:59:59', 'America/New_York')).toBe('2027-01-16T04:59:59.000Z');
    expect(timestamp('d', '2027-07-15 23:59:59', 'America/New_York')).toBe('2027-07-16T03:59:59.000Z');
    // EDD 3.6 writes the wall clock as if it were UTC seconds: 1815004799 is 2027-07-07 23:59:59 "UTC".
    expect(timestamp('d', '1815004799', 'America/New_York')).toBe('2027-07-08T03:59:59.000Z');
    // Around the change of offset (Berlin, 2027-03-28 02:00 → 03:00; 2027-10-31 03:00 → 02:00).
    expect(timestamp('d', '2027-03-28 01:30:00', 'Europe/Berlin')).toBe('2027-03-28T00:30:00.000Z');
    expect(timestamp('d', '2027-03-28 03:30:00', 'Europe/Berlin')).toBe('2027-03-28T01:30:00.000Z');
    expect(timestamp('d', '2027-10-31 01:30:00', 'Europe/Berlin')).toBe('2027-10-30T23:30:00.000Z');
    // Across the date line.
    expect(timestamp('d', '2027-06-01 08:00:00', 'Pacific/Auckland')).toBe('2027-05-31T20:00:00.000Z');
  });

  it('keep an offset the value has, and are UTC without a zone', () => {
    expect(timestamp('d', '2027-01-15T10:00:00+02:00', 'America/New_York')).toBe('2027-01-15T08:00:00.000Z');
    expect(timestamp('d', '2027-01-15 10:00:00 UTC', 'America/New_York')).toBe('2027-01-15T10:00:00.000Z');
    expect(timestamp('d', '2027-01-15 10:00:00')).toBe('2027-01-15T10:00:00.000Z');
  });

  it('know IANA zone names only', () => {
    expect(['UTC', 'Europe/Berlin', 'America/Argentina/Buenos_Aires'].map(isTimeZone)).toEqual([true, true, true]);
    expect(['Mars/Olympus', 'GMT+25', ''].map(isTimeZone)).toEqual([false, false, false]);
  });
});

describe('the values of real exports', () => {
  it("undo WordPress's addslashes", () => {
    expect(unslashed("Seán O\\'Brien")).toBe("Seán O'Brien");
    expect(unslashed('C:\\\\path \\"quoted\\"')).toBe('C:\\path "quoted"');
    expect(unslashed(undefined)).toBeUndefined();
  });

  it('read Unlimited, empty, null and 0 limits as unlimited', () => {
    for (const raw of ['Unlimited', 'unlimited', '', 'null', '0', undefined]) expect([raw, activationLimit('limit', raw, 1_000_000)]).toEqual([raw, 1_000_000]);
    expect(activationLimit('limit', '3', 1_000_000)).toBe(3);
    expect(() => activationLimit('Activation Limit', 'many', 1_000_000)).toThrow(new RowProblem('Activation Limit: "many" is not a whole number'));
  });

  it('give an owner-less license an address that receives nothing and names its source', () => {
    expect(placeholderEmail('edd', '110')).toBe('edd-110@import.invalid');
    expect(placeholderEmail('gumroad', '021aBcD21==')).toBe('gumroad-021abcd21@import.invalid');
    expect(placeholderEmail('freemius', 'sk_A b%c')).toBe('freemius-sk_a-b-c@import.invalid');
  });
});

async function documents(...chunks: string[]) {
  const read: unknown[] = [];
  for await (const document of jsonDocuments((async function* () {
    for (const chunk of chunks) yield Buffer.from(chunk);
  })())) read.push(document);
  return read;
}

describe('JSON documents of an import file', () => {
  it('are read one per line, pretty-printed, back to back or as an array, whatever the chunks cut', async () => {
    const a = { data: [{ id: '1', attributes: { name: 'a "quoted" } brace' } }] };
    const b = { licenses: [{ id: 2 }] };
    const text = `${JSON.stringify(a)}\n${JSON.stringify(b, null, 2)}${JSON.stringify(a)}\n[${JSON.stringify(b)}, ${JSON.stringify(a)}]\n`;
    const expected = [a, b, a, b, a];
    expect(await documents(text)).toEqual(expected);
    expect(await documents(text.slice(0, 7), text.slice(7, 40), text.slice(40))).toEqual(expected);
    // Cut at every byte: in strings, between an escape and what it escapes, inside multi-byte characters.
    const bytes = Buffer.from(`\uFEFF${JSON.stringify({ name: 'Zoë "ü" \\ }' })}`);
    const read: unknown[] = [];
    const byteByByte = (async function* () {
      for (let at = 0; at < bytes.length; at++) yield bytes.subarray(at, at + 1);
    })();
    for await (const document of jsonDocuments(byteByByte)) read.push(document);
    expect(read).toEqual([{ name: 'Zoë "ü" \\ }' }]);
  });

  it('refuse what is not JSON, with where', async () => {
    await expect(documents('license_key,email\n')).rejects.toThrow(new FileProblem('The file is not JSON: it does not start with { or ['));
    await expect(documents('{"a": 1}\nx')).rejects.toThrow(new FileProblem('The file has "x" after document 1, where a JSON document or nothing should follow'));
    await expect(documents('{"a": 1}\n{"b": ')).rejects.toThrow(new FileProblem('The file ends inside JSON document 2'));
    await expect(documents('{"a": tru}')).rejects.toThrow(FileProblem);
    await expect(documents('  \n')).rejects.toThrow(new FileProblem('The file is empty'));
  });
});
