import { cell, csvRows } from '../csv-table.js';
import { readRow } from '../rows.js';
import { count, flag, optional, required, timestamp } from '../values.js';
import type { ImportFormat } from './format.js';

/**
 * Freemius's licenses, as its Developer Dashboard exports them and its API names each license's fields (`id,
 * plugin_id, user_id, plan_id, pricing_id, quota, activated, activated_local, expiration, secret_key, is_free_localhost,
 * is_block_features, is_cancelled, is_whitelabeled, environment, source, created, updated`), with the owner's
 * `user_email` (and `user_first`, `user_last` or `user_name`). `quota` null: unlimited; `expiration` null: lifetime;
 * dates are UTC (`YYYY-MM-DD HH:MM:SS`). There is no status column: a cancelled license is revoked, one past its
 * expiration expired, any other active.
 */
export const freemiusFormat = (unlimitedSeats: number, now: () => Date): ImportFormat => ({
  read: (text) =>
    csvRows(text, ['secret_key', 'license_key']).map((row) =>
      readRow(row.row, () => {
        const expiresAt = timestamp('expiration', cell(row, 'expiration'));
        const cancelled = flag('is_cancelled', cell(row, 'is_cancelled'));
        const name = cell(row, 'user_name') ?? [cell(row, 'user_first', 'first'), cell(row, 'user_last', 'last')].filter(Boolean).join(' ');
        return {
          licenseKey: required('secret_key', cell(row, 'secret_key', 'license_key')),
          customerEmail: required('user_email', cell(row, 'user_email', 'email')),
          customerName: optional(name),
          status: cancelled ? 'revoked' : expiresAt && Date.parse(expiresAt) <= now().getTime() ? 'expired' : 'active',
          seats: count('quota', cell(row, 'quota')) || unlimitedSeats,
          expiresAt,
          createdAt: timestamp('created', cell(row, 'created')),
          // Freemius lists installs, not the license's sites, in its license export.
          domains: [],
        };
      }),
    ),
});
