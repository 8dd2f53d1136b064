import { cell, csvRows } from '../csv-table.js';
import { readRow, RowProblem } from '../rows.js';
import { count, mapped, optional, required, timestamp } from '../values.js';
import type { ImportFormat } from './format.js';

/**
 * License Manager for WooCommerce's CSV export (License keys → bulk action "Export (CSV)"; its columns are chosen
 * under Settings → Tools, `lmfwc_csv_export_columns`): `id, order_id, product_id, user_id, license_key, expires_at,
 * valid_for, status, times_activated, times_activated_max, created_at, created_by, updated_at, updated_by`.
 * Statuses are exported as `SOLD`, `DELIVERED`, `ACTIVE`, `INACTIVE` (and `DISABLED` in later versions).
 */
const STATUSES = { sold: 'active', delivered: 'active', active: 'active', inactive: 'suspended', disabled: 'suspended' } as const;

/**
 * The plugin's export names the WordPress user, not an e-mail. A `user_email` column (added by the vendor, or written
 * by versions that export it) is the customer's e-mail; without one, the user (or order) stands in as an address
 * that receives nothing, so the key still works and the vendor can correct the e-mail later.
 */
function customerEmail(row: Parameters<typeof cell>[0]): string {
  const email = cell(row, 'user_email', 'customer_email', 'email');
  if (email) return email;
  const user = cell(row, 'user_id');
  if (user) return `woocommerce-user-${user}@import.invalid`;
  const order = cell(row, 'order_id');
  if (order) return `woocommerce-order-${order}@import.invalid`;
  throw new RowProblem('user_email is required when the row names no user_id or order_id');
}

export const wooCommerceFormat = (unlimitedSeats: number): ImportFormat => ({
  read: (text) =>
    csvRows(text, ['license_key']).map((row) =>
      readRow(row.row, () => ({
        licenseKey: required('license_key', cell(row, 'license_key')),
        customerEmail: customerEmail(row),
        customerName: optional(cell(row, 'user_name', 'customer_name')),
        status: mapped('status', cell(row, 'status'), STATUSES, 'active'),
        // An empty maximum is unlimited in the plugin.
        seats: count('times_activated_max', cell(row, 'times_activated_max')) || unlimitedSeats,
        expiresAt: timestamp('expires_at', cell(row, 'expires_at')),
        createdAt: timestamp('created_at', cell(row, 'created_at')),
        // The plugin counts activations (`times_activated`) without naming the sites: none to carry over.
        domains: [],
      })),
    ),
});
