import { describe, expect, it } from 'vitest';
import { recordLine, recordOf, recordSchemas, RECORD_TYPES } from '../../../shared/portability/records.js';

const at = '2026-03-01T10:00:00.000Z';

describe('portable records', () => {
  it('read back what an export writes, one typed line each', () => {
    const license = recordOf.license({
      licenseKey: 'EDD-0123456789abcdef',
      licenseId: 'lic_aaaaaaaaaaaaaaaaaaaaaaaa',
      tenantId: 'usr_bbbbbbbbbbbbbbbbbbbbbbbb',
      productId: 'prd_cccccccccccccccccccccccc',
      customerEmail: 'buyer@example.com',
      status: 'active',
      seats: 3,
      activatedCount: 1,
      createdAt: at,
      updatedAt: at,
    });
    const line = recordLine(license);
    expect(line.endsWith('\n')).toBe(true);
    expect(line.trim()).not.toContain('\n');
    const parsed = recordSchemas().portable.parse(JSON.parse(line));
    expect(parsed).toEqual({ ...license, planId: null, customerId: null, customerName: null, expiresAt: null });
    // Derived counters and the tenant stay out of the record.
    expect(parsed).not.toHaveProperty('activatedCount');
    expect(parsed).not.toHaveProperty('tenantId');
  });

  it('ignore fields a newer export adds, and refuse a record of no known type', () => {
    const line = { type: 'webhook', id: 'whk_x', name: 'n', url: 'https://example.com', events: [], enabled: true, createdAt: at, future: 1 };
    expect(recordSchemas().portable.parse(line)).not.toHaveProperty('future');
    expect(recordSchemas().portable.safeParse({ type: 'invoice', id: 'x' }).success).toBe(false);
  });

  it('list the export header first and every record after those it names', () => {
    expect(RECORD_TYPES[0]).toBe('export');
    expect(RECORD_TYPES.indexOf('license')).toBeGreaterThan(RECORD_TYPES.indexOf('customer'));
    expect(RECORD_TYPES.indexOf('license')).toBeGreaterThan(RECORD_TYPES.indexOf('plan'));
    expect(RECORD_TYPES.indexOf('activation')).toBeGreaterThan(RECORD_TYPES.indexOf('license'));
  });
});
