import { CUSTOMER_TEXT_FIELDS, type EntityItem } from '../platform/data/index.js';

export type CustomerItem = EntityItem<'customer'>;

export type CustomerTextField = (typeof CUSTOMER_TEXT_FIELDS)[number];

/** A customer as the management API shows it; unset optionals are `null`. */
export function toCustomer(item: CustomerItem) {
  return {
    id: item.customerId,
    email: item.email,
    ...(Object.fromEntries(CUSTOMER_TEXT_FIELDS.map((field) => [field, item[field] ?? null])) as Record<CustomerTextField, string | null>),
    metadata: (item.metadata as Record<string, unknown> | undefined) ?? null,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}

export type Customer = ReturnType<typeof toCustomer>;

/** E-mails are compared and stored lower-cased: `A@x.com` and `a@x.com` are one customer. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

/** Lower-cased "first last": what name search matches a prefix of. */
export function nameSearchOf(firstName?: string | null, lastName?: string | null): string {
  return [firstName, lastName].filter(Boolean).join(' ').toLowerCase();
}
