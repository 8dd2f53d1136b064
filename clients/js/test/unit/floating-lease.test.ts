/** The floating lease helper under a fake clock: heartbeats before the end, takes a seat again after a lapse, releases. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { FloatingLease, LeaseNotFoundError, NetworkError, SeatsInUseError, machineFingerprint, type LeaseApi } from '../../src/index.js';

const LEASE_MS = 900_000;

/** A one-seat pool as the service keeps it, on the (fake) clock. */
function fakePool() {
  let holder: { leaseId: string; machine: string; end: number } | undefined;
  let serial = 0;
  const calls: string[] = [];
  const live = () => (holder && holder.end > Date.now() ? holder : undefined);
  const api: LeaseApi = {
    async lease(_key, machine) {
      calls.push(`lease ${machine}`);
      const current = live();
      if (current && current.machine !== machine) throw new SeatsInUseError();
      holder = { leaseId: current?.leaseId ?? `lse_${++serial}`, machine, end: Date.now() + LEASE_MS };
      return { leaseId: holder.leaseId, expiresAt: new Date(holder.end).toISOString() };
    },
    async heartbeat(_key, leaseId) {
      calls.push(`heartbeat ${leaseId}`);
      const current = live();
      if (!current || current.leaseId !== leaseId) throw new LeaseNotFoundError();
      current.end = Date.now() + LEASE_MS;
      return { expiresAt: new Date(current.end).toISOString() };
    },
    async releaseLease(_key, leaseId) {
      calls.push(`release ${leaseId}`);
      if (live()?.leaseId !== leaseId) throw new LeaseNotFoundError();
      holder = undefined;
    },
  };
  return { api, calls, steal: (machine: string) => (holder = { leaseId: 'lse_other', machine, end: Date.now() + LEASE_MS }) };
}

describe('FloatingLease', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2030-01-01T00:00:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('heartbeats at half of what is left, for as long as it runs, then releases', async () => {
    const pool = fakePool();
    const lease = new FloatingLease(pool.api, 'KEY', 'desk');
    const { leaseId } = await lease.start();
    await vi.advanceTimersByTimeAsync(LEASE_MS / 2 - 1);
    expect(pool.calls).toEqual(['lease desk']);
    await vi.advanceTimersByTimeAsync(1);
    expect(pool.calls).toEqual(['lease desk', `heartbeat ${leaseId}`]);
    // Hours later, still held: each heartbeat moved the end a full lease time on.
    await vi.advanceTimersByTimeAsync(3 * 3600_000);
    expect(lease.active).toBe(true);
    expect(pool.calls.filter((c) => c.startsWith('heartbeat'))).toHaveLength(1 + (3 * 3600_000) / (LEASE_MS / 2));
    await lease.release();
    expect(pool.calls.at(-1)).toBe(`release ${leaseId}`);
    expect(lease.active).toBe(false);
    const before = pool.calls.length;
    await vi.advanceTimersByTimeAsync(LEASE_MS * 4);
    expect(pool.calls).toHaveLength(before);
  });

  it('retries a failed heartbeat while the lease runs, and takes a seat again once it lapsed', async () => {
    const pool = fakePool();
    let down = true;
    const flaky: LeaseApi = { ...pool.api, heartbeat: (key, id) => (down ? Promise.reject(new NetworkError('offline')) : pool.api.heartbeat(key, id)) };
    const lease = new FloatingLease(flaky, 'KEY', 'desk', { retryMs: 60_000 });
    const first = await lease.start();
    // Offline past the lease's end (a laptop asleep): the next heartbeat finds it gone and leases afresh.
    await vi.advanceTimersByTimeAsync(LEASE_MS + 60_000);
    down = false;
    await vi.advanceTimersByTimeAsync(60_000);
    expect(pool.calls.filter((c) => c === 'lease desk')).toHaveLength(2);
    expect(lease.active).toBe(true);
    expect(lease.leaseId).not.toBe(first.leaseId);
  });

  it('reports a lost seat when another machine took it meanwhile', async () => {
    const pool = fakePool();
    const lost: unknown[] = [];
    const lease = new FloatingLease(pool.api, 'KEY', 'desk', { onLost: (error) => lost.push(error) });
    await lease.start();
    await vi.advanceTimersByTimeAsync(LEASE_MS + 1);
    pool.steal('laptop');
    await vi.advanceTimersByTimeAsync(LEASE_MS);
    expect(lost).toHaveLength(1);
    expect(lost[0]).toBeInstanceOf(SeatsInUseError);
    expect(lease.active).toBe(false);
  });
});

describe('machineFingerprint', () => {
  it('is a stable keyed hash of the machine id: 64 hex characters, another per salt, never the id itself', async () => {
    const readMachineId = async () => '4c4c4544-0042-3510-8052-b4c04f564433\n';
    const a = await machineFingerprint({ readMachineId, salt: 'acme-app' });
    expect(a).toMatch(/^[0-9a-f]{64}$/);
    expect(await machineFingerprint({ readMachineId, salt: 'acme-app' })).toBe(a);
    expect(await machineFingerprint({ readMachineId, salt: 'other-vendor' })).not.toBe(a);
    expect(a).not.toContain('4c4c4544');
  });

  it("reads this machine's own id where it has one", async () => {
    const fingerprint = await machineFingerprint();
    expect(fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(await machineFingerprint()).toBe(fingerprint);
  });
});
