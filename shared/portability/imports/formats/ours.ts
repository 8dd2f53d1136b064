import { DOMAIN_SEPARATOR } from '../../records.js';
import { type Channel, CHANNELS } from '../../../catalog/index.js';
import { cell, csvRows } from '../csv-table.js';
import { readRow } from '../rows.js';
import { count, featureKeys, mapped, optional, required, timestamp } from '../values.js';
import type { ImportFormat } from './format.js';

const STATUSES = { active: 'active', expired: 'expired', revoked: 'revoked', suspended: 'suspended' } as const;
const CHANNEL_NAMES = Object.fromEntries(CHANNELS.map((channel) => [channel, channel])) as Record<Channel, Channel>;

/**
 * Our CSV (DECISIONS §16): `license_key, customer_email, customer_name, status, seats, expires_at, domains, plan_slug,
 * created_at`, by header name; only the key and the e-mail are required. An export's `licenses.csv` has these columns,
 * and `channel` and `features`, read too (empty or absent: the plan's channel, else `stable`; the plan's features).
 */
export const oursCsv: ImportFormat = {
  async *read(input) {
    for await (const row of csvRows(input, ['license_key'])) {
      yield readRow(row.row, () => ({
        licenseKey: required('license_key', cell(row, 'license_key')),
        customerEmail: required('customer_email', cell(row, 'customer_email')),
        customerName: optional(cell(row, 'customer_name')),
        status: mapped('status', cell(row, 'status'), STATUSES, 'active'),
        seats: count('seats', cell(row, 'seats')),
        expiresAt: timestamp('expires_at', cell(row, 'expires_at')),
        createdAt: timestamp('created_at', cell(row, 'created_at')),
        domains: (cell(row, 'domains') ?? '').split(DOMAIN_SEPARATOR),
        planSlug: optional(cell(row, 'plan_slug')),
        channel: optional(cell(row, 'channel')) === undefined ? undefined : mapped('channel', cell(row, 'channel'), CHANNEL_NAMES),
        features: featureKeys('features', cell(row, 'features')),
      }));
    }
  },
};
