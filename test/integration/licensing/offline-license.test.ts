import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { licensedProduct, newLicense, plugin } from '../../support/licensing-fixtures.js';
import { verifyOfflineLicense, type KnownKey } from '../../support/offline-license-verifier.js';

const DAY_MS = 86_400_000;
const PHP_VERIFIER = new URL('../../support/verify-offline-license.php', import.meta.url).pathname;

const call = (path: string, body: unknown) => plugin().post(path, body, { origin: null });

async function keysOf(publicKey: string): Promise<KnownKey[]> {
  return (await plugin().get(`/public/v1/signing-key?public_key=${publicKey}`, { origin: null })).body.keys;
}

/** What PHP with sodium says of a file (test/support/verify-offline-license.php). */
function phpVerdict(file: string, keys: KnownKey[], domain: string, now: Date): string {
  const dir = mkdtempSync(join(tmpdir(), 'offline-license-'));
  try {
    const path = join(dir, 'vector.json');
    writeFileSync(path, JSON.stringify({ licenseFile: file, publicKeys: keys, domain, now: now.toISOString() }));
    return JSON.parse(execFileSync('php', [PHP_VERIFIER, path], { encoding: 'utf8' }))[path];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('offline license files', () => {
  it('issues a signed file for an activated domain that independent verifiers accept, and refuse when tampered, expired or elsewhere', async () => {
    const { product, license } = await licensedProduct({ seats: 3 });
    const pk = { public_key: product.public_key, license_key: license.licenseKey };
    expect((await call('/public/v1/licenses/activate', { ...pk, domain: 'https://www.Shop.Example.com/wp' })).status).toBe(200);

    const before = Date.now();
    const res = await call('/public/v1/licenses/offline', { ...pk, domain: 'shop.example.com' });
    expect(res.status, res.text).toBe(200);
    const keys = await keysOf(product.public_key);
    expect(res.body).toEqual({ license_file: expect.stringMatching(/^-----BEGIN LICENSE FILE v1-----\n/), key_id: keys[0]!.keyId, issued_at: expect.any(String), valid_until: expect.any(String) });
    expect(Date.parse(res.body.valid_until) - Date.parse(res.body.issued_at)).toBe(30 * DAY_MS);
    expect(Date.parse(res.body.issued_at)).toBeGreaterThanOrEqual(before - 1000);

    const file: string = res.body.license_file;
    const now = new Date();
    const { verdict, payload } = verifyOfflineLicense(file, keys, 'shop.example.com', now);
    expect(verdict).toBe('valid');
    const activation = (await plugin().post('/public/v1/licenses/check', { ...pk, domain: 'shop.example.com' }, { origin: null })).body.activation_id;
    expect(payload).toEqual({
      format: 'license-file', version: 1, keyId: keys[0]!.keyId, productId: product.id, productSlug: product.slug, licenseId: license.id,
      licenseKey: license.licenseKey, status: 'active', seats: 3, expiresAt: null, features: [], activationId: activation, domain: 'shop.example.com',
      issuedAt: res.body.issued_at, validUntil: res.body.valid_until,
    });
    expect(phpVerdict(file, keys, 'shop.example.com', now)).toBe('valid');

    // Refused: a payload edited (more seats), a file past its window, on another site, or by a key not listed.
    const lines = file.split('\n');
    const signatureAt = lines.indexOf('-----SIGNATURE-----');
    const edited = Buffer.from(JSON.stringify({ ...payload, seats: 300 })).toString('base64').match(/.{1,64}/g)!;
    const tampered = [lines[0], ...edited, ...lines.slice(signatureAt)].join('\n');
    const late = new Date(Date.parse(res.body.valid_until));
    const cases: [string, string, string, Date, KnownKey[]][] = [
      ['tampered', tampered, 'shop.example.com', now, keys],
      ['expired', file, 'shop.example.com', late, keys],
      ['wrong_domain', file, 'other.example.com', now, keys],
      ['unknown_key', file, 'shop.example.com', now, []],
    ];
    for (const [expected, text, domain, at, known] of cases) {
      expect(verifyOfflineLicense(text, known, domain, at).verdict, expected).toBe(expected);
      expect(phpVerdict(text, known, domain, at), `${expected} (php)`).toBe(expected);
    }
  });

  it('refuses a domain without an active activation, a license that cannot be used, and bad input', async () => {
    const { tenant, product, license } = await licensedProduct();
    const pk = { public_key: product.public_key, license_key: license.licenseKey };
    const refusals: [unknown, number, string][] = [
      [{ ...pk, domain: 'never.example.com' }, 400, 'Activation not found'],
      [pk, 400, 'Send either domain or machine'],
      [{ public_key: product.public_key, domain: 'x.example.com' }, 400, 'license_key is required'],
      [{ ...pk, public_key: `pk_${'c'.repeat(32)}`, domain: 'x.example.com' }, 404, 'Invalid public_key'],
      [{ ...pk, license_key: 'NOPE-AAAA-BBBB-CCCC-DDDD', domain: 'x.example.com' }, 404, 'License key not found'],
    ];
    for (const [body, status, error] of refusals) {
      const res = await call('/public/v1/licenses/offline', body);
      expect([res.status, res.body.error], error).toEqual([status, error]);
    }
    expect((await call('/public/v1/licenses/activate', { ...pk, domain: 'gone.example.com' })).status).toBe(200);
    expect((await call('/public/v1/licenses/deactivate', { ...pk, domain: 'gone.example.com' })).status).toBe(200);
    const deactivated = await call('/public/v1/licenses/offline', { ...pk, domain: 'gone.example.com' });
    expect([deactivated.status, deactivated.body.error]).toEqual([400, 'Activation not found']);

    expect((await call('/public/v1/licenses/activate', { ...pk, domain: 'kept.example.com' })).status).toBe(200);
    expect((await tenant.post(`/api/licenses/${license.id}/revoke`)).status).toBe(200);
    const revoked = await call('/public/v1/licenses/offline', { ...pk, domain: 'kept.example.com' });
    expect([revoked.status, revoked.body.error]).toEqual([400, 'License has been revoked']);
  });

  it("takes the window from the product's offlineValidityDays, and never past the license's own expiry", async () => {
    const { tenant, product, license } = await licensedProduct();
    const updated = await tenant.put(`/api/products/${product.id}`, { offlineValidityDays: 7 });
    expect([updated.status, updated.body.offlineValidityDays]).toEqual([200, 7]);
    for (const bad of [0, 366, 1.5, '30']) {
      const res = await tenant.put(`/api/products/${product.id}`, { offlineValidityDays: bad });
      expect(res.status, String(bad)).toBe(400);
    }
    // No public call has read the product yet: the public surface's 60 s product cache takes it in with the change.
    const expiresAt = new Date(Date.now() + 3 * DAY_MS).toISOString();
    const soon = await newLicense(tenant, product.id, { expiresAt });
    const pk = { public_key: product.public_key };
    for (const key of [license.licenseKey, soon.licenseKey]) {
      expect((await call('/public/v1/licenses/activate', { ...pk, license_key: key, domain: 'site.example.com' })).status).toBe(200);
    }
    const capped = await call('/public/v1/licenses/offline', { ...pk, license_key: soon.licenseKey, domain: 'site.example.com' });
    expect(capped.body.valid_until).toBe(expiresAt);
    const weekly = await call('/public/v1/licenses/offline', { ...pk, license_key: license.licenseKey, domain: 'site.example.com' });
    expect(Date.parse(weekly.body.valid_until) - Date.parse(weekly.body.issued_at)).toBe(7 * DAY_MS);
  });
});
