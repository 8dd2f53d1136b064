import * as z from 'zod/mini';
import { normalizeEmail } from '../../customers/index.js';
import { AppError } from '../../platform/index.js';
import { email } from '../../platform/http/index.js';
import { couldBeLicenseKey, type Environment, isMachineFingerprint, machineOfHoldKey, MAX_LEASE_SECONDS, MAX_MACHINE_LENGTH, MAX_MACHINE_NAME_LENGTH, MAX_PLATFORM_LENGTH, MAX_SEATS, MIN_LEASE_SECONDS, normalizeDomain } from '../../licensing/index.js';
import type { Channel } from '../../catalog/index.js';
import type { CustomerDetails, ImportedStatus, LicenseCandidate, MachineCandidate } from './rows.js';
import type { ImportTarget } from './target.js';

const MAX_NAME_LENGTH = 200;

/** A license ready to write: checked, with its plan resolved and its sites normalized and placed. */
export type ImportLicense = {
  row: number;
  licenseKey: string;
  customerEmail: string;
  customerName?: string;
  customer?: CustomerDetails;
  status: ImportedStatus;
  seats: number;
  planId?: string;
  expiresAt?: string;
  createdAt?: string;
  channel?: Channel;
  /** Feature keys the product defines (DECISIONS §23): the file's own, else what the plan grants. */
  features: string[];
  floating?: boolean;
  leaseSeconds?: number;
  sites: { domain: string; environment: Environment }[];
  /** Devices, each taking a seat as a production site does. */
  machines: MachineCandidate[];
};

const isEmail = (value: string) => z.safeParse(email, value).success;

/** Sites of an active license, normalized and without repeats; a domain that cannot be one fails the row. */
function sitesOf(domains: string[], target: ImportTarget): ImportLicense['sites'] {
  const seen = new Set<string>();
  const sites: ImportLicense['sites'] = [];
  for (const raw of domains) {
    if (!raw.trim() || machineOfHoldKey(raw.trim()) !== undefined) continue;
    let domain: string;
    try {
      domain = normalizeDomain(raw);
    } catch (error) {
      if (error instanceof AppError) throw new CheckFailure(`domain "${raw.trim()}": ${error.message.replace(/^domain /, '')}`);
      throw error;
    }
    if (seen.has(domain)) continue;
    seen.add(domain);
    sites.push({ domain, environment: target.staging.environmentOf(domain) });
  }
  return sites;
}

/**
 * Devices of an active license without repeats: those the file lists, and its `machine:<fingerprint>` domains. A
 * fingerprint must be one the API would take (it is the seat's key); a name or platform too long is cut to fit.
 */
function machinesOf(candidate: LicenseCandidate): MachineCandidate[] {
  const listed: MachineCandidate[] = [
    ...(candidate.machines ?? []),
    ...candidate.domains.flatMap((raw) => {
      const machine = machineOfHoldKey(raw.trim());
      return machine === undefined ? [] : [{ machine }];
    }),
  ];
  const machines = new Map<string, MachineCandidate>();
  for (const { machine, name, platform } of listed) {
    if (!isMachineFingerprint(machine)) {
      throw new CheckFailure(`machine "${machine.slice(0, 40)}" must be 1 to ${MAX_MACHINE_LENGTH} printable characters`);
    }
    if (machines.has(machine)) continue;
    machines.set(machine, { machine, name: name?.slice(0, MAX_MACHINE_NAME_LENGTH) || undefined, platform: platform?.slice(0, MAX_PLATFORM_LENGTH) || undefined });
  }
  return [...machines.values()];
}

function checkedLeaseSeconds(leaseSeconds: number | undefined): number | undefined {
  if (leaseSeconds === undefined) return undefined;
  if (!Number.isInteger(leaseSeconds) || leaseSeconds < MIN_LEASE_SECONDS || leaseSeconds > MAX_LEASE_SECONDS) {
    throw new CheckFailure(`lease seconds must be a whole number from ${MIN_LEASE_SECONDS} to ${MAX_LEASE_SECONDS}`);
  }
  return leaseSeconds;
}

const plural = (n: number, noun: string) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/** "2 active sites", "1 active site and 1 machine": what holds the seats, as a row's warning names it. */
function holdersText(sites: number, machines: number): string {
  if (machines === 0) return plural(sites, 'active site');
  return sites === 0 ? plural(machines, 'active machine') : `${plural(sites, 'active site')} and ${plural(machines, 'machine')}`;
}

class CheckFailure extends Error {}

/** A checked row: the license to write, and what the vendor should know of how it was read (DECISIONS §27). */
export type CheckedRow = { license: ImportLicense; warnings: string[] };


/**
 * The checks every format's rows pass, whatever their source: the key's shape (DECISIONS §16), the e-mail, the
 * seats, the plan, the sites. A license past its expiry is imported as `expired` (no sweep event comes later); only an
 * active license's sites are activated, and they take seats as any other activation (a staging site, by the product's
 * staging patterns, none). No row of a real export loses its key (§27): a license with more sites than its limit
 * imports with all of them, its seats raised to the sites it holds, and staging sites beyond the product's limit are
 * kept too, each with a warning. Answers the license with its warnings (the format's first), or the row's error.
 */
export function checkedLicense(row: number, candidate: LicenseCandidate, target: ImportTarget, now: Date): CheckedRow | string {
  try {
    const warnings = [...(candidate.warnings ?? [])];
    const licenseKey = candidate.licenseKey.trim();
    if (!couldBeLicenseKey(licenseKey)) throw new CheckFailure('license key must be 8 to 128 printable characters without spaces');
    const customerEmail = normalizeEmail(candidate.customerEmail);
    if (!isEmail(customerEmail)) throw new CheckFailure(`customer e-mail "${candidate.customerEmail.trim()}" is not a valid e-mail address`);
    const customerName = candidate.customerName?.trim().slice(0, MAX_NAME_LENGTH) || undefined;
    const plan = candidate.planSlug === undefined ? undefined : target.plansBySlug.get(candidate.planSlug);
    if (candidate.planSlug !== undefined && !plan) throw new CheckFailure(`plan "${candidate.planSlug}" is not a plan of this product`);
    let seats = candidate.seats ?? plan?.siteLimit ?? 1;
    if (!Number.isInteger(seats) || seats < 1 || seats > MAX_SEATS) throw new CheckFailure(`seats must be a whole number from 1 to ${MAX_SEATS}`);
    const expired = candidate.expiresAt !== undefined && Date.parse(candidate.expiresAt) <= now.getTime();
    const status = candidate.status === 'active' && expired ? 'expired' : candidate.status;
    const sites = status === 'active' ? sitesOf(candidate.domains, target) : [];
    const machines = status === 'active' ? machinesOf(candidate) : [];
    const leaseSeconds = checkedLeaseSeconds(candidate.leaseSeconds);
    const production = sites.filter((site) => site.environment === 'production').length;
    if (production + machines.length > seats) {
      const held = production + machines.length;
      if (held > MAX_SEATS) throw new CheckFailure(`${holdersText(production, machines.length)} are more than a license may have (${MAX_SEATS})`);
      warnings.push(`${holdersText(production, machines.length)} are more than its ${plural(seats, 'seat')}: seats raised to ${held}, so every one keeps working`);
      seats = held;
    }
    const features = [...new Set(candidate.features ?? plan?.features ?? [])];
    const undefinedFeatures = features.filter((key) => !target.features.has(key));
    if (undefinedFeatures.length > 0) {
      const one = undefinedFeatures.length === 1;
      warnings.push(`${one ? 'feature' : 'features'} ${undefinedFeatures.join(', ')} ${one ? 'is' : 'are'} not defined by this product: left out`);
    }
    const staging = sites.length - production;
    if (staging > target.staging.limit) {
      warnings.push(`${plural(staging, 'staging site')} ${staging === 1 ? 'is' : 'are'} more than the product's staging limit (${target.staging.limit}): all are kept; no other staging site activates until some are deactivated`);
    }
    return {
      warnings,
      license: {
        row,
        licenseKey,
        customerEmail,
        customerName,
        customer: candidate.customer,
        status,
        seats,
        planId: plan?.planId,
        expiresAt: candidate.expiresAt,
        createdAt: candidate.createdAt,
        // As a license made from the plan through the API: the plan's channel, unless the file names one.
        channel: candidate.channel ?? plan?.channel,
        features: features.filter((key) => target.features.has(key)),
        floating: candidate.floating || undefined,
        leaseSeconds,
        sites,
        machines,
      },
    };
  } catch (error) {
    if (error instanceof CheckFailure) return error.message;
    throw error;
  }
}
