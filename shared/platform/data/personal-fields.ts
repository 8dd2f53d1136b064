/**
 * The attributes of each entity that are a customer's personal data: the audit log seals them per customer
 * (shared/identity/audit/personal-data.ts) and erasure (DECISIONS §16) takes the same out.
 */
export const CUSTOMER_TEXT_FIELDS = [
  'firstName', 'lastName', 'company', 'phone', 'street', 'city', 'state', 'postalCode', 'country', 'timezone',
] as const;

export const PERSONAL_FIELDS: Record<string, ReadonlySet<string>> = {
  customer: new Set([...CUSTOMER_TEXT_FIELDS, 'email', 'metadata', 'nameSearch']),
  license: new Set(['customerEmail', 'customerName']),
  payment: new Set(['invoicePdfUrl']),
  activation: new Set(['ipAddress', 'lastIpAddress']),
  // A preview link's audit entry (`customer.portalPreview`) records the customer's e-mail.
  portalSignIn: new Set(['email']),
};
