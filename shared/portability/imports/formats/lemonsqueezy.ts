import { cell, csvRows } from '../csv-table.js';
import { readRow } from '../rows.js';
import { count, flag, mapped, optional, required, timestamp } from '../values.js';
import type { ImportFormat } from './format.js';

/**
 * Lemon Squeezy's license keys (Store → License keys → Export), columns as its API names a license key's attributes:
 * `key, user_name, user_email, activation_limit, instances_count, disabled, status, expires_at, created_at` (and
 * `store_id, customer_id, order_id, order_item_id, product_id, key_short, status_formatted, updated_at`, not read).
 * Statuses: `inactive` (valid, not activated), `active`, `expired`, `disabled`.
 */
const STATUSES = { inactive: 'active', active: 'active', expired: 'expired', disabled: 'suspended' } as const;

export const lemonSqueezyFormat = (unlimitedSeats: number): ImportFormat => ({
  read: (text) =>
    csvRows(text, ['key', 'license_key']).map((row) =>
      readRow(row.row, () => {
        const status = mapped('status', cell(row, 'status'), STATUSES, 'active');
        return {
          licenseKey: required('key', cell(row, 'key', 'license_key')),
          customerEmail: required('user_email', cell(row, 'user_email', 'customer_email', 'email')),
          customerName: optional(cell(row, 'user_name', 'customer_name', 'name')),
          status: flag('disabled', cell(row, 'disabled')) ? 'suspended' : status,
          // No limit (null) is unlimited.
          seats: count('activation_limit', cell(row, 'activation_limit')) || unlimitedSeats,
          expiresAt: timestamp('expires_at', cell(row, 'expires_at')),
          createdAt: timestamp('created_at', cell(row, 'created_at')),
          // Instances are named by the app that activates them, not by site: none to carry over.
          domains: [],
        };
      }),
    ),
});
