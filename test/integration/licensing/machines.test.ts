import { describe, expect, it } from 'vitest';
import { eventually, licensedProduct, plugin } from '../../support/licensing-fixtures.js';

const edge = (operation: string, body: unknown) => plugin().post(`/v1/licenses/${operation}`, body, { origin: null });
const pub = (operation: string, body: unknown) => plugin().post(`/public/v1/licenses/${operation}`, body, { origin: null });

const MACHINE = 'a3f9c2d4e5b6a7c8d9e0f1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b1c2';

describe('machine activations (DECISIONS §18)', () => {
  it('activates, validates, checks and deactivates a machine, and lists it with its name and platform', async () => {
    const { tenant, product, license } = await licensedProduct({ seats: 2 });
    const key = { license_key: license.licenseKey };
    const activated = await edge('activate', { ...key, machine: MACHINE, name: 'Ada’s MacBook', platform: 'darwin-arm64' });
    expect(activated.status, activated.text).toBe(200);
    // The answer names the machine it is about, as it names a domain.
    expect(activated.body).toMatchObject({ success: true, environment: 'production', license_key: license.licenseKey, machine: MACHINE });
    const again = await edge('activate', { ...key, machine: MACHINE });
    expect(again.body.activation_id).toBe(activated.body.activation_id);

    const valid = await edge('validate', { ...key, machine: MACHINE });
    expect([valid.status, valid.body.valid, valid.body.license.activatedCount, valid.body.machine]).toEqual([200, true, 1, MACHINE]);
    const public_key = product.public_key;
    const checked = await pub('check', { public_key, ...key, machine: MACHINE });
    expect(checked.body).toMatchObject({ activated: true, activation_id: activated.body.activation_id });
    expect((await pub('check', { public_key, ...key, machine: 'another-machine' })).body).toMatchObject({ activated: false, activation_id: null });

    // The license's activations are read through an index, which lags a little.
    const listed = await eventually(() => tenant.get(`/api/activations?license_id=${license.id}`), (r) => r.body.items?.length === 1);
    expect(listed.body.items).toEqual([
      expect.objectContaining({ id: activated.body.activation_id, domain: null, machine: MACHINE, name: 'Ada’s MacBook', platform: 'darwin-arm64', status: 'active' }),
    ]);

    const deactivated = await edge('deactivate', { ...key, machine: MACHINE });
    expect([deactivated.status, deactivated.body.success]).toEqual([200, true]);
    expect((await edge('deactivate', { ...key, machine: MACHINE })).body).toMatchObject({ error: 'Activation not found' });
    expect((await pub('check', { public_key, ...key, machine: MACHINE })).body.activated).toBe(false);
  });

  it('answers both or neither of domain and machine with 400, writing nothing', async () => {
    const { tenant, product, license } = await licensedProduct();
    const key = { license_key: license.licenseKey };
    for (const [operation, body] of [
      ['activate', { ...key, domain: 'example.com', machine: MACHINE }],
      ['activate', { ...key, site: 'example.com', machine: MACHINE }],
      ['activate', key],
      ['deactivate', { ...key, domain: 'example.com', machine: MACHINE }],
    ] as const) {
      const res = await edge(operation, body);
      expect([res.status, res.body.error], operation).toEqual([400, 'Send either domain or machine']);
    }
    const validate = await edge('validate', { ...key, domain: 'example.com', machine: MACHINE });
    expect([validate.status, validate.body]).toMatchObject([400, { valid: false, error: 'Send either domain or machine' }]);
    for (const operation of ['check', 'offline']) {
      const res = await pub(operation, { public_key: product.public_key, ...key });
      expect([res.status, res.body.error], operation).toEqual([400, 'Send either domain or machine']);
    }
    const unprintable = await edge('activate', { ...key, machine: 'tab\there' });
    expect([unprintable.status, unprintable.body.error]).toEqual([400, 'machine must be 1–128 printable characters']);
    const tooLong = await edge('activate', { ...key, machine: 'm'.repeat(129) });
    expect([tooLong.status, tooLong.body.error]).toEqual([400, 'machine must be at most 128 characters']);
    expect((await edge('validate', key)).body.license.activatedCount).toBe(0);
    expect((await tenant.get(`/api/activations?license_id=${license.id}`)).body.items).toEqual([]);
  });

  it('counts machines and domains against the same seats', async () => {
    const { license } = await licensedProduct({ seats: 2 });
    const key = { license_key: license.licenseKey };
    expect((await edge('activate', { ...key, domain: 'shop.example.com' })).status).toBe(200);
    expect((await edge('activate', { ...key, machine: MACHINE })).status).toBe(200);
    const full = await edge('activate', { ...key, machine: 'second-machine' });
    expect([full.status, full.body.error]).toEqual([400, 'License seat limit reached']);
    const fullDomain = await edge('activate', { ...key, domain: 'other.example.com' });
    expect([fullDomain.status, fullDomain.body.error]).toEqual([400, 'License seat limit reached']);
    // A machine whose fingerprint looks like a domain is still a machine: it holds no domain's seat.
    expect((await edge('deactivate', { ...key, machine: 'shop.example.com' })).body.error).toBe('Activation not found');
    expect((await edge('deactivate', { ...key, machine: MACHINE })).status).toBe(200);
    expect((await edge('activate', { ...key, machine: 'second-machine' })).status).toBe(200);
  });

  it('issues an offline license file for an activated machine', async () => {
    const { product, license } = await licensedProduct();
    const key = { public_key: product.public_key, license_key: license.licenseKey };
    const before = await pub('offline', { ...key, machine: MACHINE });
    expect([before.status, before.body.error]).toEqual([400, 'Activation not found']);
    const activated = await pub('activate', { ...key, machine: MACHINE, platform: 'linux-x64' });
    expect(activated.status).toBe(200);
    const file = await pub('offline', { ...key, machine: MACHINE });
    expect(file.status, file.text).toBe(200);
    const payloadBase64 = file.body.license_file.split('\n').slice(1, file.body.license_file.split('\n').indexOf('-----SIGNATURE-----')).join('');
    const payload = JSON.parse(Buffer.from(payloadBase64, 'base64').toString('utf8'));
    expect(payload).toMatchObject({ licenseKey: license.licenseKey, activationId: activated.body.activation_id, machine: MACHINE });
    expect(payload).not.toHaveProperty('domain');
  });
});
