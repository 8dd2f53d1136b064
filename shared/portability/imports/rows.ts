import type { LICENSE_STATUSES } from '../../platform/data/index.js';
import type { Channel } from '../../catalog/index.js';

export type ImportedStatus = (typeof LICENSE_STATUSES)[number];

/** What a customer record of a `jsonl` export adds to an e-mail and a name, used when the customer is created. */
export type CustomerDetails = {
  firstName?: string;
  lastName?: string;
  company?: string;
  phone?: string;
  street?: string;
  city?: string;
  state?: string;
  postalCode?: string;
  country?: string;
  timezone?: string;
  metadata?: Record<string, unknown>;
};

/**
 * One license as a format reads it from its row, before the common checks (`checkedLicense`): values are what the
 * file says, mapped to our fields. `seats` absent: the plan's `siteLimit`, else 1.
 */
export type LicenseCandidate = {
  licenseKey: string;
  customerEmail: string;
  customerName?: string;
  customer?: CustomerDetails;
  status: ImportedStatus;
  seats?: number;
  /** ISO timestamp; absent: lifetime. */
  expiresAt?: string;
  createdAt?: string;
  /**
   * Sites the license is active on, as the file names them (normalized by the common checks). An entry
   * `machine:<fingerprint>` is a device (as our exports write a machine's hold), with no name or platform.
   */
  domains: string[];
  /** Devices the license is active on, with what the client reported of them (a `jsonl` export's machine activations). */
  machines?: MachineCandidate[];
  planSlug?: string;
  /** The license's own feature keys (our exports carry them); absent: what its plan grants (DECISIONS §23). */
  features?: string[];
  /** Absent: `stable` (the formats that have no channels). */
  channel?: Channel;
  /** A floating license (DECISIONS §18) and its lease lifetime; absent: not floating, 900 s. */
  floating?: boolean;
  leaseSeconds?: number;
  /** What the vendor should know of how the row was read (a placeholder e-mail, …): the row's warning (DECISIONS §27). */
  warnings?: string[];
};

/** A device holding a seat (DECISIONS §18). */
export type MachineCandidate = { machine: string; name?: string; platform?: string };

/**
 * A file row: a license to import; a row that is no license (a totals line, an unlicensed sale, another product's
 * row), not counted; a row left out for a reason the vendor is told (a sandbox license, unsold stock), counted as
 * skipped; or a bad row.
 */
export type RowResult =
  | { row: number; license: LicenseCandidate }
  | { row: number; ignored: true }
  | { row: number; skipped: string }
  | { row: number; error: string };

/** A value a format cannot read: the row is reported with this message and nothing of it is imported. */
export class RowProblem extends Error {}

/** A row the format leaves out on purpose: counted as skipped, with this message as its warning. */
export class RowSkip extends Error {}

/**
 * Reads one row with `read`, turning a `RowProblem` into the row's error and a `RowSkip` into a skipped row. Any other
 * exception is a bug and propagates (the job fails rather than silently skipping rows).
 */
export function readRow(row: number, read: () => LicenseCandidate | 'ignored'): RowResult {
  try {
    const license = read();
    return license === 'ignored' ? { row, ignored: true } : { row, license };
  } catch (error) {
    if (error instanceof RowProblem) return { row, error: error.message };
    if (error instanceof RowSkip) return { row, skipped: error.message };
    throw error;
  }
}

/**
 * The address a license without an owner is given (DECISIONS §27), `<format>-<source id>@import.invalid`: it receives
 * nothing (`.invalid`), keeps the key working, and names where it came from, so the vendor can set the real one later.
 */
export function placeholderEmail(format: string, sourceId: string): string {
  const local = `${format}-${sourceId}`.toLowerCase().replace(/[^a-z0-9._-]+/g, '-').replace(/-+/g, '-').replace(/^[-.]+|[-.]+$/g, '');
  return `${local.slice(0, 64)}@import.invalid`;
}
