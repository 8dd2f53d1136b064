import { FileProblem } from '../file-problem.js';
import { cell, csvRows } from '../csv-table.js';
import { jsonDocuments } from '../json-documents.js';
import { placeholderEmail, readRow, RowSkip, type LicenseCandidate, type RowResult } from '../rows.js';
import { activationLimit, flag, required, timestamp } from '../values.js';
import { sniffed, type ImportFormat } from './format.js';
import { addActivation } from './holders.js';

/**
 * Freemius's licenses, as its API names a license's fields (`id, plugin_id, user_id, plan_id, pricing_id, quota,
 * activated, activated_local, expiration, secret_key, is_free_localhost, is_block_features, is_cancelled,
 * is_whitelabeled, environment, source, created, updated`). Read from the API's own JSON (DECISIONS §27): pages of
 * `{"licenses": […]}` (`GET …/plugins/{id}/licenses.json`), `{"users": […]}` (`…/users.json`: `id, email, first, last`)
 * and `{"installs": […]}` (`…/installs.json`: `id, user_id, license_id, url, is_active, is_uninstalled`), in any order,
 * one document or one per line; or from a CSV of the same license fields with the owner's `user_email` (and
 * `user_first`, `user_last` or `user_name`). `quota` null: unlimited; `expiration` null: lifetime; dates are UTC
 * (`YYYY-MM-DD HH:MM:SS`). There is no status field: a cancelled license is revoked, one past its expiration expired,
 * any other active. `environment` 1 is the sandbox: test purchases, left out.
 */

/** A license's fields by name, whether a CSV row's cells or an API object's values. */
type Fields = (name: string) => string | undefined;

type Owner = { email: string; name?: string };

const isSandbox = (environment: string | undefined) => environment === '1' || environment?.toLowerCase() === 'sandbox';

function licenseOf(field: Fields, owner: Owner | undefined, missingOwner: string, unlimitedSeats: number): LicenseCandidate {
  const licenseKey = required('secret_key', field('secret_key') ?? field('license_key'));
  if (isSandbox(field('environment'))) throw new RowSkip('sandbox license (a test purchase in Freemius\'s sandbox): not imported');
  const warnings: string[] = [];
  let customer = owner;
  if (!customer) {
    const email = placeholderEmail('freemius', field('id') ?? licenseKey);
    warnings.push(`${missingOwner}: imported for ${email}; set the real address on the license`);
    customer = { email };
  }
  return {
    licenseKey,
    customerEmail: customer.email,
    customerName: customer.name,
    status: flag('is_cancelled', field('is_cancelled')) ? 'revoked' : 'active',
    seats: activationLimit('quota', field('quota'), unlimitedSeats),
    expiresAt: timestamp('expiration', field('expiration')),
    createdAt: timestamp('created', field('created')),
    domains: [],
    warnings,
  };
}

/** An API object's field as text; null and absent are nothing. */
const textOf = (object: Record<string, unknown>) => (name: string) => {
  const value = object[name];
  return value === null || value === undefined || typeof value === 'object' ? undefined : String(value).trim() || undefined;
};

const nameOf = (first: string | undefined, last: string | undefined) => [first, last].filter(Boolean).join(' ') || undefined;

async function* fromCsv(input: AsyncIterable<Buffer>, unlimitedSeats: number): AsyncGenerator<RowResult> {
  for await (const row of csvRows(input, ['secret_key', 'license_key'])) {
    yield readRow(row.row, () => {
      const field: Fields = (name) => cell(row, name);
      const email = cell(row, 'user_email', 'email');
      const name = cell(row, 'user_name') ?? nameOf(cell(row, 'user_first', 'first'), cell(row, 'user_last', 'last'));
      const missing = cell(row, 'user_id') ? 'the row has no user_email' : 'the license is not linked to a Freemius user yet';
      return licenseOf(field, email ? { email, name } : undefined, missing, unlimitedSeats);
    });
  }
}

const PAGES = ['licenses', 'users', 'installs'] as const;

/** The API's pages, gathered (a license's user and installs may come before or after it), then read license by license. */
async function* fromJson(input: AsyncIterable<Buffer>, unlimitedSeats: number): AsyncGenerator<RowResult> {
  const licenses: { row: number; object: Record<string, unknown> }[] = [];
  const users = new Map<string, Owner>();
  const installs = new Map<string, Record<string, unknown>[]>();
  let row = 0;
  let document = 0;
  for await (const page of jsonDocuments(input)) {
    document++;
    const kind = PAGES.find((name) => Array.isArray((page as Record<string, unknown> | null)?.[name]));
    if (!kind) throw new FileProblem(`Document ${document} is not a Freemius page of licenses, users or installs ({"licenses": […]}, {"users": […]}, {"installs": […]})`);
    for (const item of (page as Record<string, unknown[]>)[kind]!) {
      row++;
      if (!item || typeof item !== 'object') continue;
      const object = item as Record<string, unknown>;
      const field = textOf(object);
      if (kind === 'licenses') licenses.push({ row, object });
      else if (kind === 'users' && field('id') && field('email')) users.set(field('id')!, { email: field('email')!, name: nameOf(field('first'), field('last')) });
      else if (kind === 'installs' && field('license_id')) installs.set(field('license_id')!, [...(installs.get(field('license_id')!) ?? []), object]);
    }
  }
  for (const { row, object } of licenses) {
    yield readRow(row, () => {
      const field = textOf(object);
      const userId = field('user_id');
      const owner = userId ? users.get(userId) : undefined;
      const missing = userId ? `user ${userId} is not in the file (add the users page)` : 'the license is not linked to a Freemius user yet';
      const license = licenseOf(field, owner, missing, unlimitedSeats);
      for (const install of installs.get(field('id') ?? '') ?? []) {
        const of = textOf(install);
        if (of('is_active') === 'false' || of('is_uninstalled') === 'true') continue;
        addActivation(license, of('url'), of('id') ?? of('site_id') ?? '');
      }
      return license;
    });
  }
}

export const freemiusFormat = (unlimitedSeats: number): ImportFormat => ({
  async *read(input) {
    const file = await sniffed(input);
    yield* file.json ? fromJson(file.bytes, unlimitedSeats) : fromCsv(file.bytes, unlimitedSeats);
  },
});
