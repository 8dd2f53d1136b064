import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { EXPORT_FORMAT_VERSION, recordSchemas, type CustomerRecord } from '../../records.js';
import { FileProblem } from '../file-problem.js';
import type { CustomerDetails, LicenseCandidate, RowResult } from '../rows.js';
import type { ImportFormat } from './format.js';

const present = <T>(value: T | null | undefined): T | undefined => value ?? undefined;

function detailsOf(record: CustomerRecord): CustomerDetails {
  return {
    firstName: present(record.firstName),
    lastName: present(record.lastName),
    company: present(record.company),
    phone: present(record.phone),
    street: present(record.street),
    city: present(record.city),
    state: present(record.state),
    postalCode: present(record.postalCode),
    country: present(record.country),
    timezone: present(record.timezone),
    metadata: present(record.metadata),
  };
}

/** The first problem zod found, as `field: message`. */
function firstIssue(issues: readonly { path: PropertyKey[]; message: string }[]): string {
  const issue = issues[0]!;
  return issue.path.length ? `${issue.path.join('.')}: ${issue.message}` : issue.message;
}

/**
 * Our account export (shared/portability/records.ts): one typed record per line, row numbers are line numbers.
 * Licenses are imported with their customers' details, their plan (by its slug in the target product), whether they
 * float, and the sites and machines of their active activations; the other records (products, plans, releases,
 * payments, subscriptions, webhooks) inform the licenses or are not carried over (docs/import.md). A license's
 * activations come after it, so the file's licenses are gathered as its lines stream in, and answered at its end.
 */
export const jsonlFormat: ImportFormat = {
  async *read(input) {
    const results: RowResult[] = [];
    const customers = new Map<string, CustomerRecord>();
    const planSlugs = new Map<string, string>();
    const licenses = new Map<string, LicenseCandidate>();
    const source = Readable.from(input);
    let row = 0;
    for await (const line of createInterface({ input: source, crlfDelay: Infinity })) {
      row++;
      readLine(line, row);
    }
    yield* results.sort((a, b) => a.row - b.row);

    function readLine(line: string, row: number): void {
      if (!line.trim()) return;
      let json: unknown;
      try {
        json = JSON.parse(line);
      } catch {
        results.push({ row, error: 'not a JSON object' });
        return;
      }
      const parsed = recordSchemas().portable.safeParse(json);
      if (!parsed.success) {
        const type = (json as { type?: unknown } | null)?.type;
        results.push({ row, error: typeof type === 'string' ? `${type}: ${firstIssue(parsed.error.issues)}` : 'type is required' });
        return;
      }
      const record = parsed.data;
      switch (record.type) {
        case 'export':
          if (record.formatVersion > EXPORT_FORMAT_VERSION) {
            throw new FileProblem(`The export is format version ${record.formatVersion}; this service reads up to ${EXPORT_FORMAT_VERSION}`);
          }
          return;
        case 'customer':
          customers.set(record.id, record);
          return;
        case 'plan':
          planSlugs.set(record.id, record.slug);
          return;
        case 'license': {
          const customer = record.customerId ? customers.get(record.customerId) : undefined;
          const license: LicenseCandidate = {
            licenseKey: record.licenseKey,
            customerEmail: record.customerEmail,
            customerName: present(record.customerName),
            customer: customer && detailsOf(customer),
            status: record.status,
            seats: record.seats,
            expiresAt: present(record.expiresAt),
            createdAt: record.createdAt,
            domains: [],
            planSlug: record.planId ? planSlugs.get(record.planId) : undefined,
            channel: record.channel,
            features: record.features,
            floating: record.floating,
            leaseSeconds: record.leaseSeconds,
            machines: [],
          };
          licenses.set(record.id, license);
          results.push({ row, license });
          return;
        }
        case 'activation': {
          const license = licenses.get(record.licenseId);
          if (!license) results.push({ row, error: `activation: license ${record.licenseId} is not in the file before it` });
          else if (record.status === 'active' && record.machine) {
            license.machines!.push({ machine: record.machine, name: present(record.name), platform: present(record.platform) });
          } else if (record.status === 'active') {
            // A site, or a device of an export made before activations carried `machine` (its `machine:` hold key).
            license.domains.push(record.domain);
          }
          return;
        }
        default:
        // Not carried over (docs/import.md): not a row of the import.
      }
    }
  },
};
