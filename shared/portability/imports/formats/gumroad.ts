import { cell, csvRows } from '../csv-table.js';
import { readRow } from '../rows.js';
import { count, flag, optional, required, timestamp } from '../values.js';
import type { ImportFormat } from './format.js';

/**
 * Gumroad's sales export (Sales → Export, `Exports::PurchaseExportService`): one row per sale with, among others,
 * `Purchase ID, Item Name, Buyer Name, Purchase Email, Buyer Email, Purchase Date, Purchase Time (UTC timezone),
 * Refunded?, Fully Refunded?, Disputed?, Dispute Won?, Recurring Charge?, Quantity, Subscription End Date, License Key`,
 * and a last `Totals` row. A sale without a license key (a product without licenses) and the totals row are ignored;
 * a subscription's renewals repeat its first sale's key and are skipped as duplicates. A fully refunded sale, or a lost
 * dispute, revokes the key (as Gumroad disables it); a subscription's end date is the license's expiry.
 * Gumroad keys have no activation limit: seats are the sale's quantity.
 */
export const gumroadFormat = (now: () => Date): ImportFormat => ({
  read: (text) =>
    csvRows(text, ['license_key']).map((row) =>
      readRow(row.row, () => {
        const licenseKey = cell(row, 'license_key');
        if (!licenseKey || cell(row, 'purchase_id') === 'Totals') return 'ignored';
        const lostDispute = flag('Disputed?', cell(row, 'disputed')) && !flag('Dispute Won?', cell(row, 'dispute_won'));
        const expiresAt = timestamp('Subscription End Date', cell(row, 'subscription_end_date'));
        const day = cell(row, 'purchase_date');
        const time = cell(row, 'purchase_time_utc_timezone');
        return {
          licenseKey,
          customerEmail: required('Purchase Email', cell(row, 'purchase_email', 'buyer_email', 'email')),
          customerName: optional(cell(row, 'buyer_name', 'full_name')),
          status:
            flag('Fully Refunded?', cell(row, 'fully_refunded')) || lostDispute
              ? 'revoked'
              : expiresAt && Date.parse(expiresAt) <= now().getTime()
                ? 'expired'
                : 'active',
          seats: count('Quantity', cell(row, 'quantity')) || 1,
          expiresAt,
          // The time column holds the whole moment (`2024-03-01 10:00:00 UTC`); the date alone is the fallback.
          createdAt: timestamp('Purchase Time (UTC timezone)', time) ?? timestamp('Purchase Date', day),
          domains: [],
        };
      }),
    ),
});
