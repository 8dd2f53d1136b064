import { FileProblem } from '../file-problem.js';
import { cell, csvRows, type CsvRow } from '../csv-table.js';
import { placeholderEmail, readRow, type LicenseCandidate, type RowResult } from '../rows.js';
import { activationLimit, mapped, required, timestamp, unslashed } from '../values.js';
import type { ImportFormat, ImportOptions } from './format.js';

/**
 * Easy Digital Downloads Software Licensing's license export (Downloads → Reports → Export → Export License Keys;
 * `EDD_SL_License_Export`). Since 3.6: `License ID, License Key, License Status, Customer ID, Customer Email, Customer
 * Name, User ID, Product Name, Price ID, Purchase Date, Expiration Date, Activation Limit, Activation Count, Activated
 * URLs` (URLs joined with `, `, the expiration in Unix seconds, 0 for lifetime). Before 3.6: `Email, License Key,
 * License Status, Product Name, Purchase Date, Expiration Date, Activation Limit, Activation Count, Activated URLs`
 * (URLs joined with ` - `, the expiration as `date('Y-m-d H:i:s', …)`: `1970-01-01 00:00:00` for a lifetime one, and
 * `Unlimited` as a limit). Dates and "Unix seconds" alike are the store's local time (WordPress's `current_time`).
 * Every cell is written quoted, with `"` replaced by `'` and `addslashes` applied (`O\'Brien`): read without the slashes.
 */
const STATUSES = { active: 'active', inactive: 'active', expired: 'expired', disabled: 'suspended' } as const;

/** EDD writes 0, nothing or `lifetime` for a lifetime license's expiration (and, before 3.6, 1970's first second). */
function expiration(raw: string | undefined, timezone: string | undefined): string | undefined {
  const value = raw?.trim().toLowerCase();
  if (!value || value === '0' || value === 'lifetime' || value.startsWith('0000-00-00') || value.startsWith('1970-01-01')) return undefined;
  return timestamp('Expiration Date', raw, timezone);
}

/** Product names compare trimmed and in any case: `productName=seo pro` picks `SEO Pro`. */
const sameName = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The names a problem with the file's products lists, at most. */
const LISTED_PRODUCTS = 10;

/** A cell as EDD meant it: without the slashes its exporter added. */
const field = (row: CsvRow, ...columns: string[]) => unslashed(cell(row, ...columns));

function licenseOf(row: CsvRow, unlimitedSeats: number, timezone: string | undefined): LicenseCandidate {
  const licenseKey = required('License Key', field(row, 'license_key'));
  const warnings: string[] = [];
  let customerEmail = field(row, 'customer_email', 'email');
  if (!customerEmail) {
    customerEmail = placeholderEmail('edd', field(row, 'license_id') ?? licenseKey);
    warnings.push(`no customer e-mail (its customer was deleted in EDD): imported for ${customerEmail}; set the real address on the license`);
  }
  return {
    licenseKey,
    customerEmail,
    customerName: field(row, 'customer_name'),
    status: mapped('License Status', field(row, 'license_status', 'status'), STATUSES, 'active'),
    seats: activationLimit('Activation Limit', field(row, 'activation_limit'), unlimitedSeats),
    expiresAt: expiration(field(row, 'expiration_date'), timezone),
    createdAt: timestamp('Purchase Date', field(row, 'purchase_date'), timezone),
    domains: (field(row, 'activated_urls') ?? '').split(/,|\s+-\s+/),
    warnings,
  };
}

/**
 * The reader. An export of all products (EDD's default) is imported one product at a time: `productName` picks its
 * rows (the others are not rows of this import); without it, a file of more than one product is refused as a whole.
 */
export const eddFormat = (unlimitedSeats: number, options: Pick<ImportOptions, 'timezone' | 'productName'>): ImportFormat => ({
  async *read(input) {
    const products: string[] = [];
    let picked = 0;
    for await (const row of csvRows(input, ['license_key'])) {
      const product = field(row, 'product_name');
      if (product && !products.some((name) => sameName(name, product)) && products.length < LISTED_PRODUCTS) products.push(product);
      if (options.productName !== undefined) {
        if (!product || !sameName(product, options.productName)) {
          yield { row: row.row, ignored: true } satisfies RowResult;
          continue;
        }
        picked++;
      } else if (products.length > 1) {
        throw new FileProblem(`The file holds the licenses of more than one product (${products.join(', ')}): import it once per product, naming it with productName`);
      }
      yield readRow(row.row, () => licenseOf(row, unlimitedSeats, options.timezone));
    }
    if (options.productName !== undefined && picked === 0) {
      throw new FileProblem(`No row of the file is of the product "${options.productName}" (its products: ${products.join(', ') || 'none named'})`);
    }
  },
});
