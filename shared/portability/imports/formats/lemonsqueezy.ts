import { FileProblem } from '../file-problem.js';
import { cell, csvRows } from '../csv-table.js';
import { jsonDocuments } from '../json-documents.js';
import { placeholderEmail, readRow, RowSkip, type LicenseCandidate, type RowResult } from '../rows.js';
import { activationLimit, flag, mapped, optional, required, timestamp } from '../values.js';
import { sniffed, type ImportFormat } from './format.js';
import { addActivation } from './holders.js';

/**
 * Lemon Squeezy's license keys. Its only bulk source is its API (DECISIONS §27): JSON:API pages of `license-keys`
 * (`GET /v1/license-keys`: `data[].attributes` `key, user_name, user_email, activation_limit, instances_count,
 * disabled, status, expires_at, test_mode, created_at`, …) and of `license-key-instances` (`GET
 * /v1/license-key-instances`: `license_key_id, identifier, name`), each page as the API answers it, in any order (or
 * one page with `included` instances), one document or one per line. A CSV with the same attribute names as columns
 * is read too. Statuses: `inactive` (valid, not activated), `active`, `expired`, `disabled`. Test-mode keys are left out.
 */
const STATUSES = { inactive: 'active', active: 'active', expired: 'expired', disabled: 'suspended' } as const;

/** A license key's attributes by name, whether a CSV row's cells or an API object's values. */
type Fields = (name: string) => string | undefined;

function licenseOf(field: Fields, id: string | undefined, unlimitedSeats: number): LicenseCandidate {
  const licenseKey = required('key', field('key') ?? field('license_key'));
  if (flag('test_mode', field('test_mode'))) throw new RowSkip('test-mode license key (made by a test purchase): not imported');
  const warnings: string[] = [];
  let customerEmail = field('user_email') ?? field('customer_email') ?? field('email');
  if (!customerEmail) {
    customerEmail = placeholderEmail('lemonsqueezy', id ?? licenseKey);
    warnings.push(`no user_email: imported for ${customerEmail}; set the real address on the license`);
  }
  const status = mapped('status', field('status'), STATUSES, 'active');
  return {
    licenseKey,
    customerEmail,
    customerName: optional(field('user_name') ?? field('customer_name') ?? field('name')),
    status: flag('disabled', field('disabled')) ? 'suspended' : status,
    // No limit (null) is unlimited.
    seats: activationLimit('activation_limit', field('activation_limit'), unlimitedSeats),
    expiresAt: timestamp('expires_at', field('expires_at')),
    createdAt: timestamp('created_at', field('created_at')),
    domains: [],
    warnings,
  };
}

async function* fromCsv(input: AsyncIterable<Buffer>, unlimitedSeats: number): AsyncGenerator<RowResult> {
  for await (const row of csvRows(input, ['key', 'license_key'])) {
    yield readRow(row.row, () => licenseOf((name) => cell(row, name), cell(row, 'id'), unlimitedSeats));
  }
}

type Resource = { type?: unknown; id?: unknown; attributes?: Record<string, unknown> };

const textOf = (object: Record<string, unknown> | undefined) => (name: string) => {
  const value = object?.[name];
  return value === null || value === undefined || typeof value === 'object' ? undefined : String(value).trim() || undefined;
};

/** The API's pages, gathered (instances may come before or after their keys), then read key by key. */
async function* fromJson(input: AsyncIterable<Buffer>, unlimitedSeats: number): AsyncGenerator<RowResult> {
  const keys: { row: number; resource: Resource }[] = [];
  const instances = new Map<string, Resource[]>();
  let row = 0;
  let document = 0;
  for await (const page of jsonDocuments(input)) {
    document++;
    const { data, included } = (page ?? {}) as { data?: unknown; included?: unknown };
    if (data === undefined) throw new FileProblem(`Document ${document} is not a Lemon Squeezy API page (a JSON:API document with "data")`);
    const resources = [...(Array.isArray(data) ? data : [data]), ...(Array.isArray(included) ? included : [])] as Resource[];
    for (const resource of resources) {
      row++;
      if (resource?.type === 'license-keys') keys.push({ row, resource });
      else if (resource?.type === 'license-key-instances') {
        const keyId = textOf(resource.attributes)('license_key_id');
        if (keyId) instances.set(keyId, [...(instances.get(keyId) ?? []), resource]);
      }
    }
  }
  for (const { row, resource } of keys) {
    yield readRow(row, () => {
      const id = resource.id === undefined ? undefined : String(resource.id);
      const license = licenseOf(textOf(resource.attributes), id, unlimitedSeats);
      for (const instance of instances.get(id ?? '') ?? []) {
        const of = textOf(instance.attributes);
        addActivation(license, of('name'), of('identifier') ?? String(instance.id));
      }
      return license;
    });
  }
}

export const lemonSqueezyFormat = (unlimitedSeats: number): ImportFormat => ({
  async *read(input) {
    const file = await sniffed(input);
    yield* file.json ? fromJson(file.bytes, unlimitedSeats) : fromCsv(file.bytes, unlimitedSeats);
  },
});
