import { cell, csvRows } from '../csv-table.js';
import { readRow } from '../rows.js';
import { count, mapped, optional, required, timestamp } from '../values.js';
import type { ImportFormat } from './format.js';

/**
 * Easy Digital Downloads Software Licensing's license export (Downloads → Reports → Export → Export License Keys;
 * `EDD_SL_License_Export`): `License ID, License Key, License Status, Customer ID, Customer Email, Customer Name,
 * User ID, Product Name, Price ID, Purchase Date, Expiration Date, Activation Limit, Activation Count, Activated URLs`.
 * Exports before 3.6 name the e-mail column `Email` and join the URLs with ` - `.
 */
const STATUSES = { active: 'active', inactive: 'active', expired: 'expired', disabled: 'suspended' } as const;

/** EDD writes 0 (or nothing) for a lifetime license's expiration. */
function expiration(raw: string | undefined): string | undefined {
  const value = raw?.trim().toLowerCase();
  if (!value || value === '0' || value === 'lifetime' || value.startsWith('0000-00-00')) return undefined;
  return timestamp('Expiration Date', raw);
}

/** An activation limit of 0 or none is unlimited. */
function limit(raw: string | undefined, unlimited: number): number {
  const value = count('Activation Limit', raw);
  return value === undefined || value === 0 ? unlimited : value;
}

export const eddFormat = (unlimitedSeats: number): ImportFormat => ({
  read: (text) =>
    csvRows(text, ['license_key']).map((row) =>
      readRow(row.row, () => {
        const urls = cell(row, 'activated_urls') ?? '';
        const status = mapped('License Status', cell(row, 'license_status', 'status'), STATUSES, 'active');
        return {
          licenseKey: required('License Key', cell(row, 'license_key')),
          customerEmail: required('Customer Email', cell(row, 'customer_email', 'email')),
          customerName: optional(cell(row, 'customer_name')),
          status,
          seats: limit(cell(row, 'activation_limit'), unlimitedSeats),
          expiresAt: expiration(cell(row, 'expiration_date')),
          createdAt: timestamp('Purchase Date', cell(row, 'purchase_date')),
          domains: urls.split(/,|\s+-\s+/),
        };
      }),
    ),
});
