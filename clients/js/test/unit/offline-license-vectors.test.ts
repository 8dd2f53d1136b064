/** The client's offline license file verifier against every published test vector (docs/test-vectors/offline-license). */
import { describe, expect, it } from 'vitest';
import { LicensingClient, SigningKeys, checkLicenseFile } from '../../src/index.js';
import { offlineVector, offlineVectors } from '../support/offline-vectors.js';

const vectors = offlineVectors();

describe('offline license file vectors', () => {
  it('covers every documented verdict', () => {
    expect(new Set(vectors.map(([, vector]) => vector.expected))).toEqual(new Set(['valid', 'tampered', 'expired', 'wrong_domain', 'unknown_key']));
  });

  it.each(vectors)('%s: %s', async (_name, vector) => {
    const keys = new SigningKeys({ pinned: vector.publicKeys, storageKey: 'vectors', now: () => Date.parse(vector.now) });
    const checked = await checkLicenseFile(vector.licenseFile, { keys, domain: vector.domain, now: Date.parse(vector.now) });
    expect(checked.verdict).toBe(vector.expected);
  });

  it('gives each refusal to validateOffline as its reason, and the payload of a valid file as an offline result', async () => {
    for (const [name, vector] of vectors) {
      const client = new LicensingClient({
        baseUrl: 'https://licenses.invalid',
        publicKey: 'pk_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
        now: () => Date.parse(vector.now),
        signing: { publicKeys: vector.publicKeys },
        offline: { load: () => vector.licenseFile },
      });
      const outcome = await client.validateOffline('ACME-SEO-ABCD-EFGH-JKLM-NPQR', { domain: vector.domain }).catch((error) => error);
      if (vector.expected === 'valid') {
        expect(outcome, name).toMatchObject({
          valid: true,
          source: 'offline',
          license: { key: 'ACME-SEO-ABCD-EFGH-JKLM-NPQR', status: 'active', seats: 3, expiresAt: '2027-01-15T00:00:00.000Z' },
          product: { slug: 'acme-seo' },
        });
      } else {
        expect(outcome, name).toMatchObject({ code: 'offline_license', reason: vector.expected });
      }
    }
  });

  it('normalizes the site as the service does, and refuses a file of another key or product, or on a clock turned back', async () => {
    const vector = offlineVector('valid');
    let vectorNow = Date.parse(vector.now);
    const client = (productSlug?: string) =>
      new LicensingClient({
        baseUrl: 'https://licenses.invalid',
        publicKey: 'pk_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
        productSlug,
        now: () => vectorNow,
        signing: { publicKeys: vector.publicKeys },
        offline: { load: () => vector.licenseFile },
      });
    expect(await client().validateOffline('ACME-SEO-ABCD-EFGH-JKLM-NPQR', { domain: 'https://WWW.Shop.Example.com:8443/wp' })).toMatchObject({ valid: true });
    await expect(client().validateOffline('ACME-AAAA-BBBB-CCCC-DDDD', { domain: 'shop.example.com' })).rejects.toMatchObject({ reason: 'other_license' });
    await expect(client('another-product').validateOffline('ACME-SEO-ABCD-EFGH-JKLM-NPQR', { domain: 'shop.example.com' })).rejects.toMatchObject({
      reason: 'other_product',
    });
    await expect(client().validateOffline('ACME-SEO-ABCD-EFGH-JKLM-NPQR')).rejects.toMatchObject({ reason: 'not_configured' });
    // A clock turned back before the file was issued, to stretch its window.
    vectorNow = Date.parse('2026-02-01T00:00:00Z');
    await expect(client().validateOffline('ACME-SEO-ABCD-EFGH-JKLM-NPQR', { domain: 'shop.example.com' })).rejects.toMatchObject({ reason: 'clock' });
    expect(() => new LicensingClient({ baseUrl: 'https://licenses.invalid', offline: { load: () => null } })).toThrow(/offline needs signing/);
  });
});
