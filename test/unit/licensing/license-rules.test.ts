import { describe, expect, it } from 'vitest';
import { metadataSchema } from '../../../shared/customers/metadata.js';
import { nameSearchOf, normalizeEmail } from '../../../shared/customers/customer-view.js';
import { EXPIRY_SHARD_COUNT, expiryItemChanges, expiryShard } from '../../../shared/licensing/licenses/expiry-items.js';
import { activationsDeactivated, licenseStatusMoves } from '../../../shared/licensing/licenses/license-counters.js';
import { couldBeLicenseKey, generateLicenseKey, hasGeneratedKeyShape } from '../../../shared/licensing/licenses/license-key.js';
import { KEY_ALPHABET } from '../../../shared/platform/ids.js';

/** Stand-ins for ElectroDB transaction entities that record what each item would do. */
const recordingCounter = {
  update: (key: { name: string }) => ({ add: ({ count }: { count: number }) => ({ commit: () => [key.name, count] }) }),
} as never;
const recordingExpiry = {
  licenseExpiry: {
    put: (item: { expiresAt: string }) => ({ commit: () => ['put', item.expiresAt] }),
    delete: (key: { expiresAt: string }) => ({ commit: () => ['delete', key.expiresAt] }),
  },
  licenseReminder: {
    put: (item: { remindAt: string; expiresAt: string }) => ({ commit: () => ['remind', item.remindAt, item.expiresAt] }),
  },
} as never;

describe('license keys', () => {
  it('are the prefix plus four groups of four characters without 0, O, 1 or I', () => {
    expect(KEY_ALPHABET).not.toMatch(/[0O1I]/);
    for (let i = 0; i < 200; i++) {
      const key = generateLicenseKey('WIDGET-');
      expect(key).toMatch(/^WIDGET-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    }
    expect(new Set(Array.from({ length: 1000 }, () => generateLicenseKey(''))).size).toBe(1000);
  });

  it('are recognised in a search string; e-mails and fragments are not keys', () => {
    expect(hasGeneratedKeyShape('ACME-ABCD-EFGH-JKLM-NPQR')).toBe(true);
    expect(hasGeneratedKeyShape('ABCD-EFGH-JKLM-NPQR')).toBe(true);
    expect(hasGeneratedKeyShape('ABCD-EFGH')).toBe(false);
    expect(hasGeneratedKeyShape('abcd-efgh-jklm-npqr')).toBe(false);
    expect(hasGeneratedKeyShape('ABCD-EFGH-JKLM-NPQR@example.com')).toBe(false);
  });

  it('may be kept from another system: 8-128 printable characters without spaces', () => {
    const kept = [
      '0f3a9c2d4b5e6f708192a3b4c5d6e7f8', // EDD (32 hex)
      '38b1460a-5104-4067-a91d-77b872934d51', // Lemon Squeezy (UUID)
      'A1B2C3D4-E5F6A7B8-C9D0E1F2-A3B4C5D6', // Gumroad
      'sk_123FGqM456Pa786WtOp%^+67Y+;sXXz', // Freemius
      'ÉTÉ-2024-clé',
      'x'.repeat(128),
      'ACME-ABCD-EFGH-JKLM-NPQR',
    ];
    for (const key of kept) expect([key, couldBeLicenseKey(key)]).toEqual([key, true]);
    for (const value of ['short', 'x'.repeat(129), 'has space inside', 'tab\there!', 'new\nline123', 'zero\u200bwidth', '']) {
      expect([value, couldBeLicenseKey(value)]).toEqual([value, false]);
    }
  });
});

describe('counter moves', () => {
  it('touch only the counters that differ between two statuses', () => {
    expect(licenseStatusMoves(recordingCounter, 't', 'prd_1', 'active', 'revoked')).toEqual([
      ['license#status#active', -1],
      ['license#product#prd_1#status#active', -1],
      ['license#status#revoked', 1],
      ['license#product#prd_1#status#revoked', 1],
    ]);
    expect(activationsDeactivated(recordingCounter, 't', 3)).toEqual([
      ['activation#status#active', -3],
      ['activation#status#deactivated', 3],
    ]);
  });
});

describe('expiry items', () => {
  const license = { licenseId: 'lic_1', tenantId: 't', productId: 'p' };
  const change = (before: object | undefined, after: object | undefined) =>
    expiryItemChanges(recordingExpiry, license, before as never, after as never);

  const A = '2027-03-02T00:00:00.000Z';
  const B = '2027-04-01T00:00:00.000Z';
  // Each new active expiry also gets its reminder item, 60 days before it.
  const remindA = ['remind', '2027-01-01T00:00:00.000Z', A];
  const remindB = ['remind', '2027-01-31T00:00:00.000Z', B];

  it('exist exactly while a license is active with an expiry (its grace end when later), with a reminder item per new expiry', () => {
    expect(change(undefined, { status: 'active', expiresAt: A })).toEqual([['put', A], remindA]);
    expect(change(undefined, { status: 'active' })).toEqual([]);
    expect(change({ status: 'active', expiresAt: A }, { status: 'active', expiresAt: A })).toEqual([]);
    expect(change({ status: 'active', expiresAt: A }, { status: 'active', expiresAt: B })).toEqual([['delete', A], ['put', B], remindB]);
    expect(change({ status: 'active', expiresAt: A }, { status: 'suspended', expiresAt: A })).toEqual([['delete', A]]);
    expect(change({ status: 'suspended', expiresAt: A }, { status: 'active', expiresAt: A })).toEqual([['put', A], remindA]);
    expect(change({ status: 'active', expiresAt: A }, { status: 'active', expiresAt: undefined })).toEqual([['delete', A]]);
    expect(change({ status: 'active', expiresAt: A }, undefined)).toEqual([['delete', A]]);
    // Grace moves the expiry item, not the reminders (they are about `expiresAt`).
    expect(change({ status: 'active', expiresAt: A }, { status: 'active', expiresAt: A, graceUntil: B })).toEqual([['delete', A], ['put', B]]);
    expect(change({ status: 'active', expiresAt: A, graceUntil: B }, { status: 'active', expiresAt: B })).toEqual([remindB]);
  });

  it('spread over a fixed set of shards, the same one for a license every time', () => {
    const shards = new Set(Array.from({ length: 500 }, (_, i) => expiryShard(`lic_${i}`)));
    expect(shards.size).toBe(EXPIRY_SHARD_COUNT);
    expect(expiryShard('lic_abc')).toBe(expiryShard('lic_abc'));
  });
});

describe('customer fields', () => {
  it('e-mails compare lower-cased; names search as lower-cased "first last"', () => {
    expect(normalizeEmail(' Jane@Example.COM ')).toBe('jane@example.com');
    expect(nameSearchOf('Jane', 'Van Dijk')).toBe('jane van dijk');
    expect(nameSearchOf(undefined, 'Solo')).toBe('solo');
    expect(nameSearchOf(null, null)).toBe('');
  });

  it('metadata is an object of at most 8 levels and 8 KB', () => {
    const nest = (levels: number) => {
      let value: Record<string, unknown> = { leaf: 1 };
      for (let i = 1; i < levels; i++) value = { next: value };
      return value;
    };
    expect(metadataSchema.safeParse(nest(8)).success).toBe(true);
    expect(metadataSchema.safeParse(nest(9)).success).toBe(false);
    expect(metadataSchema.safeParse({ list: [[[[[[[1]]]]]]] }).success).toBe(true);
    expect(metadataSchema.safeParse({ list: [[[[[[[[1]]]]]]]] }).success).toBe(false);
    expect(metadataSchema.safeParse({ text: 'x'.repeat(8000) }).success).toBe(true);
    expect(metadataSchema.safeParse({ text: 'x'.repeat(8200) }).success).toBe(false);
    expect(metadataSchema.safeParse(['a']).success).toBe(false);
    expect(metadataSchema.safeParse(null).success).toBe(false);
  });
});
