import { CUSTOMER_TEXT_FIELDS } from '../../platform/data/index.js';

/** The address an erased customer, and its licenses, carry instead of theirs (DECISIONS §16). */
export const erasedEmailOf = (customerId: string) => `erased-${customerId}@invalid`;

/** What marks a customer's personal data in a copy of it (a webhook payload, an event): its e-mail and its licenses. */
export type ErasureSubject = { email: string; erasedEmail: string; licenseIds: ReadonlySet<string> };

/**
 * A copy of `value` (parsed JSON: a customer, a license, an activation list item, or anything holding them) with the
 * subject's personal data taken out the way erasure takes it out of the records themselves: an object with the
 * subject's `email` loses its name, address, phone and metadata, one with its `customerEmail` loses `customerName`,
 * and an activation of one of its licenses loses its IP addresses and a device's name. Everything else is kept as it is.
 */
export function erasedCopy(value: unknown, subject: ErasureSubject): unknown {
  if (Array.isArray(value)) return value.map((entry) => erasedCopy(entry, subject));
  if (value === null || typeof value !== 'object') return value;
  const copy = Object.fromEntries(Object.entries(value).map(([key, entry]) => [key, erasedCopy(entry, subject)])) as Record<string, unknown>;
  if (copy.email === subject.email) {
    copy.email = subject.erasedEmail;
    for (const field of [...CUSTOMER_TEXT_FIELDS, 'metadata']) if (field in copy) copy[field] = null;
  }
  if (copy.customerEmail === subject.email) {
    copy.customerEmail = subject.erasedEmail;
    if ('customerName' in copy) copy.customerName = null;
  }
  if (typeof copy.licenseId === 'string' && subject.licenseIds.has(copy.licenseId)) {
    if ('ipAddress' in copy) copy.ipAddress = '';
    delete copy.lastIpAddress;
    if ('machine' in copy && 'name' in copy) copy.name = null;
  }
  return copy;
}
