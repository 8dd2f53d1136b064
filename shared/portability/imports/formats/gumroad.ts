import { cell, csvRows, type CsvRow } from '../csv-table.js';
import { placeholderEmail, readRow, type ImportedStatus, type LicenseCandidate } from '../rows.js';
import { count, flag, optional, timestamp } from '../values.js';
import type { ImportFormat } from './format.js';

/**
 * Gumroad's sales export (Sales → Export, `Exports::PurchaseExportService`): one row per sale with, among others,
 * `Purchase ID, Item Name, Buyer Name, Purchase Email, Buyer Email, Purchase Date, Purchase Time (UTC timezone),
 * Refunded?, Fully Refunded?, Disputed?, Dispute Won?, Access Revoked?, Giftee Email, Quantity, Subscription End Date,
 * License Key, License Key Activation Count, License Key Enabled?`, and a last `Totals` row. A sale without a license
 * key (a product without licenses) and the totals row are ignored; a subscription's renewals repeat its first sale's
 * key and are skipped as duplicates.
 *
 * What a key's status is: a full refund, a lost dispute or revoked access end it (`revoked`; Gumroad leaves the key
 * itself enabled, and its license API answers `refunded`, `chargebacked` or no access, which sellers' code refuses); a
 * key the seller disabled is `suspended`; a subscription's end date is its expiry. A gift's key is the recipient's
 * (`Giftee Email`): the row is the giver's sale, its key the recipient's. Gumroad keys have no activation limit: seats
 * are the sale's quantity.
 */
function statusOf(row: CsvRow, expiresAt: string | undefined, now: Date): ImportedStatus {
  const lostDispute = flag('Disputed?', cell(row, 'disputed')) && !flag('Dispute Won?', cell(row, 'dispute_won'));
  if (flag('Fully Refunded?', cell(row, 'fully_refunded')) || lostDispute || flag('Access Revoked?', cell(row, 'access_revoked'))) return 'revoked';
  // Absent in exports made before the column: enabled.
  if (cell(row, 'license_key_enabled') !== undefined && !flag('License Key Enabled?', cell(row, 'license_key_enabled'))) return 'suspended';
  return expiresAt && Date.parse(expiresAt) <= now.getTime() ? 'expired' : 'active';
}

function licenseOf(row: CsvRow, licenseKey: string, now: Date): LicenseCandidate {
  const expiresAt = timestamp('Subscription End Date', cell(row, 'subscription_end_date'));
  const giftee = cell(row, 'giftee_email');
  const warnings: string[] = [];
  let customerEmail = giftee ?? cell(row, 'purchase_email', 'buyer_email', 'email');
  if (!customerEmail) {
    customerEmail = placeholderEmail('gumroad', cell(row, 'purchase_id') ?? licenseKey);
    warnings.push(`the sale has no e-mail: imported for ${customerEmail}; set the real address on the license`);
  }
  return {
    licenseKey,
    customerEmail,
    // The buyer's name is the giver's, not the recipient's.
    customerName: giftee ? undefined : optional(cell(row, 'buyer_name', 'full_name')),
    status: statusOf(row, expiresAt, now),
    seats: count('Quantity', cell(row, 'quantity')) || 1,
    expiresAt,
    // The time column holds the whole moment (`2024-03-01 10:00:00 UTC`); the date alone is the fallback.
    createdAt: timestamp('Purchase Time (UTC timezone)', cell(row, 'purchase_time_utc_timezone')) ?? timestamp('Purchase Date', cell(row, 'purchase_date')),
    domains: [],
    warnings,
  };
}

export const gumroadFormat = (now: () => Date): ImportFormat => ({
  async *read(input) {
    for await (const row of csvRows(input, ['license_key'])) {
      yield readRow(row.row, () => {
        const licenseKey = cell(row, 'license_key');
        if (!licenseKey || cell(row, 'purchase_id') === 'Totals') return 'ignored';
        return licenseOf(row, licenseKey, now());
      });
    }
  },
});
