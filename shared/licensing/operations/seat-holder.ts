import { BadRequestError } from '../../platform/index.js';
import { normalizeDomain } from './domain.js';

/** Longest machine fingerprint (DECISIONS §18). */
export const MAX_MACHINE_LENGTH = 128;
export const MAX_MACHINE_NAME_LENGTH = 128;
export const MAX_PLATFORM_LENGTH = 64;

/** What the activation's hold is keyed by for a machine: a normalized domain never starts so (it has no `:` outside IPv6 brackets). */
const MACHINE_HOLD_PREFIX = 'machine:';

/**
 * What takes a seat (DECISIONS §18): a web site by its normalized `domain`, or a device by its `machine` fingerprint,
 * with the name and platform the client reports. `holdKey` is what the activation and its hold item
 * (`activeDomain`, one per license and holder) are keyed by: the domain itself, or `machine:<fingerprint>`, so both
 * kinds share one seat count and every path that frees or lists a hold.
 */
export type SeatHolder =
  | { kind: 'domain'; holdKey: string; domain: string }
  | { kind: 'machine'; holdKey: string; machine: string; name?: string; platform?: string };

export const machineHoldKey = (machine: string) => `${MACHINE_HOLD_PREFIX}${machine}`;

/** The machine an activation's hold key names, or undefined for a domain. */
export function machineOfHoldKey(holdKey: string): string | undefined {
  return holdKey.startsWith(MACHINE_HOLD_PREFIX) ? holdKey.slice(MACHINE_HOLD_PREFIX.length) : undefined;
}

/** A fingerprint: 1–128 printable ASCII characters, as sent (case matters). */
export const isMachineFingerprint = (machine: string) => machine.length <= MAX_MACHINE_LENGTH && /^[\x20-\x7e]+$/.test(machine);

export function checkMachine(machine: string, field = 'machine'): string {
  if (!isMachineFingerprint(machine)) throw new BadRequestError(`${field} must be 1–${MAX_MACHINE_LENGTH} printable characters`);
  return machine;
}

type HolderFields = { domain?: string; site?: string; machine?: string; name?: string; platform?: string };

export const BOTH_OR_NEITHER = 'Send either domain or machine';

/** The holder a body names, if any; both a domain (or site) and a machine is 400. */
export function givenHolder(body: HolderFields): SeatHolder | undefined {
  const rawDomain = body.domain ?? body.site;
  if (rawDomain !== undefined && body.machine !== undefined) throw new BadRequestError(BOTH_OR_NEITHER);
  if (body.machine !== undefined) {
    const machine = checkMachine(body.machine);
    return { kind: 'machine', holdKey: machineHoldKey(machine), machine, name: body.name, platform: body.platform };
  }
  if (rawDomain === undefined) return undefined;
  const domain = normalizeDomain(rawDomain, body.domain !== undefined ? 'domain' : 'site');
  return { kind: 'domain', holdKey: domain, domain };
}

/** The holder a body must name: neither is 400 too. */
export function requiredHolder(body: HolderFields): SeatHolder {
  const holder = givenHolder(body);
  if (!holder) throw new BadRequestError(BOTH_OR_NEITHER);
  return holder;
}

/** The holder for an already normalized domain. */
export const domainHolder = (domain: string): SeatHolder => ({ kind: 'domain', holdKey: domain, domain });
