import { counterNames, counterUpdates, type TransactionEntities } from '../platform/data/index.js';
import { outboxEvent } from '../messaging/index.js';
import { type Deps, newId } from '../platform/index.js';
import { nameSearchOf, toCustomer, type CustomerItem } from './customer-view.js';

/** How a license write is tied to the tenant's customer with its e-mail: an existing one, or one it creates. */
export type CustomerLink = { customerId: string; email: string; tenantId: string; created?: CustomerItem };

/** "Jane van Dijk" → first name "Jane", last name "van Dijk". */
function splitName(name: string | undefined) {
  const [firstName, ...rest] = (name ?? '').trim().split(/\s+/).filter(Boolean);
  return { firstName, lastName: rest.length ? rest.join(' ') : undefined };
}

/**
 * Reads who holds the e-mail now. The write that uses the link re-checks it in its transaction
 * (`customerLinkItems`), so a customer created or deleted meanwhile cancels it and the caller retries.
 */
export async function resolveCustomerLink(
  deps: Pick<Deps, 'data'>,
  tenantId: string,
  email: string,
  name: string | undefined,
  now: Date,
): Promise<CustomerLink> {
  const { data: holder } = await deps.data.entities.customerEmail.get({ tenantId, email }).go({ consistent: true });
  if (holder) return { customerId: holder.customerId, email, tenantId };
  const { firstName, lastName } = splitName(name);
  const createdAt = now.toISOString();
  const customer: CustomerItem = {
    customerId: newId('cus'),
    tenantId,
    email,
    firstName,
    lastName,
    nameSearch: nameSearchOf(firstName, lastName),
    createdAt,
    updatedAt: createdAt,
  };
  return { customerId: customer.customerId, email, tenantId, created: customer };
}

/** The transaction items of a link: a check that the e-mail still names that customer, or the customer's creation. */
export function customerLinkItems(tx: TransactionEntities, link: CustomerLink, now: Date) {
  const { tenantId, email, customerId } = link;
  if (!link.created) {
    return [tx.customerEmail.check({ tenantId, email }).where(({ customerId: holder }, { eq }) => eq(holder, customerId)).commit()];
  }
  return [
    tx.customerEmail.create({ tenantId, email, customerId }).commit(),
    tx.customer.create(link.created).commit(),
    ...outboxEvent(tx, { tenantId, type: 'customer.created', data: toCustomer(link.created), now }),
    ...counterUpdates(tx.counter, tenantId, counterNames.customers(), 1),
  ];
}
