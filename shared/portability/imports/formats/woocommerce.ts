import { cell, csvRows, type CsvRow } from '../csv-table.js';
import { placeholderEmail, readRow, RowProblem, RowSkip, type LicenseCandidate } from '../rows.js';
import { activationLimit, mapped, optional, required, timestamp } from '../values.js';
import type { ImportFormat, ImportInput, ImportOptions, WordPressUser } from './format.js';

/**
 * License Manager for WooCommerce's CSV export (License keys → bulk action "Export (CSV)"; its columns are chosen
 * under Settings → Tools, `lmfwc_csv_export_columns`): `id, order_id, product_id, user_id, license_key, expires_at,
 * valid_for, status, times_activated, times_activated_max, created_at, created_by, updated_at, updated_by`, statuses
 * as `SOLD`, `DELIVERED`, `ACTIVE`, `INACTIVE` (and `DISABLED` in later versions). A dump of its table
 * (`wp_lmfwc_licenses`) has the same columns with the statuses as numbers (1 to 5), `NULL` for nothing, and the keys
 * encrypted (with a `hash` column). In the plugin, `ACTIVE` means "in stock, for sale": a key without an order is
 * stock that was never sold.
 */
const STATUSES = {
  sold: 'active', delivered: 'active', active: 'active', inactive: 'suspended', disabled: 'suspended',
  1: 'active', 2: 'active', 3: 'active', 4: 'suspended', 5: 'suspended',
} as const;
const STOCK_STATUSES = new Set(['active', 'inactive', '3', '4']);

/** `defuse/php-encryption`'s ciphertext, as the plugin stores a key: its version header `def50200`, then hex. */
const ENCRYPTED_KEY = /^def50200[0-9a-f]{100,}$/i;

/** A table dump's nothing: empty, `NULL`, or (ids) 0. */
const present = (value: string | undefined) => (value && value.toUpperCase() !== 'NULL' && value !== '0' ? value : undefined);

/**
 * The customer: an e-mail column (added by the vendor), else the users file's entry for the row's user; else an
 * address that receives nothing, named after the user, the order or the license (DECISIONS §27), with a warning.
 */
function customerOf(row: CsvRow, users: Map<string, WordPressUser> | undefined, warnings: string[]): { email: string; name?: string } {
  const name = optional(cell(row, 'user_name', 'customer_name', 'display_name'));
  const email = cell(row, 'user_email', 'customer_email', 'billing_email', 'email');
  if (email) return { email, name };
  const userId = present(cell(row, 'user_id'));
  const user = userId ? users?.get(userId) : undefined;
  if (user) return { email: user.email, name: name ?? user.name };
  const orderId = present(cell(row, 'order_id'));
  const placeholder = userId
    ? placeholderEmail('woocommerce-user', userId)
    : orderId
      ? placeholderEmail('woocommerce-order', orderId)
      : placeholderEmail('woocommerce', cell(row, 'id') ?? `row-${row.row}`);
  const why = userId && users ? `user ${userId} is not in the users file` : 'the export has no e-mail (add a users file or an e-mail column)';
  warnings.push(`${why}: imported for ${placeholder}; set the real address on the license`);
  return { email: placeholder, name };
}

function licenseOf(row: CsvRow, unlimitedSeats: number, users: Map<string, WordPressUser> | undefined): LicenseCandidate {
  const licenseKey = required('license_key', cell(row, 'license_key'));
  if (ENCRYPTED_KEY.test(licenseKey)) {
    throw new RowProblem(
      'license_key is encrypted (this is a dump of the plugin\'s table): export the keys with License Manager\'s own CSV export ' +
        '(License keys → select them → Bulk actions → Export (CSV)), which writes them decrypted',
    );
  }
  const rawStatus = cell(row, 'status')?.toLowerCase() ?? '';
  if (!present(cell(row, 'order_id')) && STOCK_STATUSES.has(rawStatus)) throw new RowSkip('unsold stock key (no order): not imported');
  const warnings: string[] = [];
  const customer = customerOf(row, users, warnings);
  return {
    licenseKey,
    customerEmail: customer.email,
    customerName: customer.name,
    status: mapped('status', rawStatus, STATUSES, 'active'),
    // An empty maximum is unlimited in the plugin.
    seats: activationLimit('times_activated_max', present(cell(row, 'times_activated_max')), unlimitedSeats),
    expiresAt: timestamp('expires_at', present(cell(row, 'expires_at'))),
    createdAt: timestamp('created_at', present(cell(row, 'created_at'))),
    // The plugin counts activations (`times_activated`) without naming the sites: none to carry over.
    domains: [],
    warnings,
  };
}

export const wooCommerceFormat = (unlimitedSeats: number, options: Pick<ImportOptions, 'users'>): ImportFormat => ({
  async *read(input) {
    for await (const row of csvRows(input, ['license_key'])) yield readRow(row.row, () => licenseOf(row, unlimitedSeats, options.users));
  },
});

/**
 * A users file for a `woocommerce` import: a CSV with each WordPress user's id (`ID`, `user_id` or `id`) and e-mail
 * (`user_email` or `email`), and a name if it has one (`display_name`, or `first_name` and `last_name`), such as
 * `wp user list --fields=ID,user_email,display_name --format=csv` writes. Rows without an id or an e-mail are passed over.
 */
export async function readUsersFile(input: ImportInput): Promise<Map<string, WordPressUser>> {
  const users = new Map<string, WordPressUser>();
  for await (const row of csvRows(input, ['id', 'user_id'])) {
    const id = cell(row, 'id', 'user_id');
    const email = cell(row, 'user_email', 'email');
    if (!id || !email) continue;
    const name = cell(row, 'display_name', 'name') ?? ([cell(row, 'first_name'), cell(row, 'last_name')].filter(Boolean).join(' ') || undefined);
    users.set(id, { email, name });
  }
  return users;
}
