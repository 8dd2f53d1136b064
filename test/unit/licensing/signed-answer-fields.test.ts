import { describe, expect, it } from 'vitest';
import { json } from '../../../shared/platform/http/responses.js';
import { withFields } from '../../../shared/licensing/signing/signed-answers.js';

/** What binding an answer wrote before it skipped the second pass: parse, spread the fields in, serialize. */
const reparsed = (body: string, fields: Record<string, string>) => JSON.stringify({ ...(JSON.parse(body) as object), ...fields });

describe('the fields that bind a signed answer to its request', () => {
  const bodies: unknown[] = [
    {},
    { valid: true, license: { key: 'K-1', status: 'active', seats: 3, expiresAt: null }, product: { id: 'prod_1', name: 'Ünïcode "quoted" \\ \u2028', slug: 's' } },
    { valid: false, error: 'License not found' },
    { 2: 'integer keys first', b: [1, 2.5, -0, 1e21], a: { nested: 'x' } },
    // Fields already there (at the top level, nested, or as text) keep their place, as a spread keeps them.
    { license_key: 'old', valid: true },
    { valid: true, license: { license_key: 'nested' } },
    { error: 'domain "example.com" is not active', valid: false },
  ];
  const fieldSets: Record<string, string>[] = [{ license_key: 'KEY-1' }, { license_key: ' KEY-2 ', domain: 'example.com' }, {}];

  it('writes the very text of parsing, spreading and serializing again', () => {
    for (const body of bodies) {
      for (const fields of fieldSets) {
        const answer = json(200, body);
        expect(withFields(answer, fields).body).toBe(reparsed(answer.body!, fields));
      }
    }
  });
});
