/** The JavaScript client's machines and floating leases against the local stack, through HTTP. */
import { describe, expect, inject, it } from 'vitest';
import { newTenant } from '../../../../test/support/client.js';
import { newLicense, newProduct } from '../../../../test/support/licensing-fixtures.js';
import { LicensingClient, NoLeaseError, SeatsInUseError, machineFingerprint, type ValidateResult } from '../../src/index.js';

const baseUrl = inject('baseUrl');

async function vendor(licenseFields: Record<string, unknown>) {
  const tenant = await newTenant();
  const product = await newProduct(tenant);
  const license = await newLicense(tenant, product.id, licenseFields);
  // Signed answers checked on first use, as a desktop app ships it: bound to the machine each request names.
  const client = new LicensingClient({ baseUrl, publicKey: product.public_key, signing: { trustOnFirstUse: true } });
  return { tenant, license, client };
}

const errorOf = (result: ValidateResult) => (result.valid ? undefined : result.error);

describe('machines and floating leases through the JavaScript client', () => {
  it('activates this machine by its fingerprint and validates it', async () => {
    const { tenant, license, client } = await vendor({ seats: 1 });
    const fingerprint = await machineFingerprint({ salt: 'client-test' });
    const activation = await client.activateMachine(license.licenseKey, { fingerprint, name: 'CI runner', platform: 'linux-x64' });
    expect(activation.activationId).toMatch(/^act_/);
    expect((await client.validate(license.licenseKey, { machine: fingerprint })).valid).toBe(true);
    const detail = await tenant.get(`/api/licenses/${license.id}`);
    expect(detail.body.activations[0]).toMatchObject({ machine: fingerprint, name: 'CI runner', platform: 'linux-x64', domain: null });
    await client.deactivateMachine(license.licenseKey, fingerprint);
    expect((await client.validate(license.licenseKey)).valid).toBe(true);
  });

  it('holds a floating seat with heartbeats and returns it', async () => {
    const { license, client } = await vendor({ seats: 1, floating: true, leaseSeconds: 60 });
    const key = license.licenseKey;
    // Heartbeat at once (a second, the helper's floor) rather than at half-time, so the test sees one.
    const lease = client.floatingLease(key, 'desk-1', { heartbeatAt: 0 });
    const { leaseId, expiresAt } = await lease.start();
    expect(leaseId).toMatch(/^lse_/);
    const deadline = Date.now() + 10_000;
    while (lease.expiresAt!.getTime() === expiresAt.getTime() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(lease.expiresAt!.getTime()).toBeGreaterThan(expiresAt.getTime());
    expect(lease.leaseId).toBe(leaseId);

    const valid = await client.validate(key, { machine: 'desk-1' });
    expect(valid.valid).toBe(true);
    expect(errorOf(await client.validate(key, { machine: 'desk-2' }))).toBeInstanceOf(NoLeaseError);
    await expect(client.lease(key, 'desk-2')).rejects.toBeInstanceOf(SeatsInUseError);

    await lease.release();
    expect(lease.active).toBe(false);
    const next = await client.lease(key, 'desk-2');
    expect(next.leaseId).not.toBe(leaseId);
    await client.releaseLease(key, next.leaseId);
  });
});
