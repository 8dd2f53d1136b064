import { counterNames, counterUpdates, CUSTOMER_TEXT_FIELDS, readCounter, transact } from '../platform/data/index.js';
import { ConflictError, type Deps, newId, NotFoundError, type Page, pageOf, paginateInMemory, withoutNulls } from '../platform/index.js';
import { outboxEvent } from '../messaging/index.js';
import { nameSearchOf, normalizeEmail, toCustomer, type Customer, type CustomerItem, type CustomerTextField } from './customer-view.js';

type CustomerDeps = Pick<Deps, 'data' | 'clock'>;

export type CustomerInput = { email: string; metadata?: Record<string, unknown> | null } & { [K in CustomerTextField]?: string | null };
export type CustomerChanges = Partial<CustomerInput>;

const CUSTOMER_NOT_FOUND = 'Customer not found';
const EMAIL_TAKEN = 'A customer with this email already exists';
/** A search reads at most this many matches from each index (name and e-mail). */
const CUSTOMER_SEARCH_LIMIT = 1000;
/** Rounds of "changed between our read and our write" before answering 409. */
const WRITE_ROUNDS = 5;

export async function loadCustomer(deps: CustomerDeps, tenantId: string, customerId: string): Promise<CustomerItem> {
  const { data } = await deps.data.entities.customer.get({ customerId }).go({ consistent: true });
  if (!data || data.tenantId !== tenantId) throw new NotFoundError(CUSTOMER_NOT_FOUND);
  return data;
}

/** Claims the e-mail and creates the customer in one transaction; a taken e-mail is 409. */
export async function createCustomer(deps: CustomerDeps, tenantId: string, input: CustomerInput): Promise<Customer> {
  const now = deps.clock.now();
  const fields = withoutNulls({ ...input, email: normalizeEmail(input.email) });
  const item: CustomerItem = {
    ...fields,
    customerId: newId('cus'),
    tenantId,
    nameSearch: nameSearchOf(fields.firstName, fields.lastName),
    createdAt: now.toISOString(),
    updatedAt: now.toISOString(),
  };
  const customer = toCustomer(item);
  const outcome = await transact(deps.data, (tx) => ({
    email: tx.customerEmail.create({ tenantId, email: item.email, customerId: item.customerId }).commit(),
    customer: tx.customer.create(item).commit(),
    event: outboxEvent(tx, { tenantId, type: 'customer.created', data: customer, now }),
    counters: counterUpdates(tx.counter, tenantId, counterNames.customers(), 1),
  }));
  if (outcome.committed) return customer;
  if (outcome.refused('email')) throw new ConflictError(EMAIL_TAKEN);
  throw outcome.unexpected();
}

/** Newest first; page N reads N × per_page index items, the total is one counter read. */
export async function listCustomers(
  deps: CustomerDeps,
  tenantId: string,
  options: { page: number; perPage: number; search?: string },
): Promise<Page<Customer>> {
  const needle = options.search?.trim().toLowerCase();
  if (needle) return searchCustomers(deps, tenantId, needle, options);
  const { page, perPage } = options;
  const total = await readCounter(deps.data.entities.counter, tenantId, counterNames.customers()[0]!);
  const skip = (page - 1) * perPage;
  if (skip >= total) return pageOf([], page, perPage, total);
  const wanted = page * perPage;
  const { data } = await deps.data.entities.customer.query.byTenant({ tenantId }).go({ order: 'desc', limit: wanted, count: wanted, pages: 'all' });
  return pageOf(data.slice(skip).map(toCustomer), page, perPage, total);
}

/** Prefix of the e-mail or of "first last" (both lower-cased), merged newest first. */
async function searchCustomers(deps: CustomerDeps, tenantId: string, needle: string, options: { page: number; perPage: number }) {
  const query = deps.data.entities.customer.query;
  const [byEmail, byName] = await Promise.all([
    query.byEmail({ tenantId }).begins({ email: needle }).go({ count: CUSTOMER_SEARCH_LIMIT, pages: 'all' }),
    query.byName({ tenantId }).begins({ nameSearch: needle }).go({ count: CUSTOMER_SEARCH_LIMIT, pages: 'all' }),
  ]);
  const unique = new Map([...byEmail.data, ...byName.data].map((item) => [item.customerId, item]));
  const sorted = [...unique.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.customerId.localeCompare(a.customerId));
  return paginateInMemory(sorted.map(toCustomer), options.page, options.perPage);
}

/**
 * A partial update in one transaction, conditioned on the customer being as read; a new e-mail is
 * claimed (409 when taken) and the old one released in the same transaction.
 */
export async function updateCustomer(deps: CustomerDeps, tenantId: string, customerId: string, changes: CustomerChanges): Promise<Customer> {
  for (let round = 0; round < WRITE_ROUNDS; round++) {
    const current = await loadCustomer(deps, tenantId, customerId);
    const now = deps.clock.now();
    const email = changes.email === undefined ? current.email : normalizeEmail(changes.email);
    const cleared = [...CUSTOMER_TEXT_FIELDS, 'metadata' as const].filter((field) => changes[field] === null);
    const next: CustomerItem = { ...current, ...withoutNulls(changes), email, updatedAt: now.toISOString() };
    for (const field of cleared) delete next[field];
    next.nameSearch = nameSearchOf(next.firstName, next.lastName);
    const customer = toCustomer(next);
    const emailChanges = email !== current.email;
    const { tenantId: tenant, createdAt, nameSearch, updatedAt } = next;
    const set = { ...withoutNulls(changes), email, tenantId: tenant, createdAt, nameSearch, updatedAt };

    const outcome = await transact(deps.data, (tx) => ({
      customer: tx.customer
        .patch({ customerId })
        .set(set)
        .remove(cleared)
        .where(({ updatedAt: at, email: held }, { eq }) => `${eq(at, current.updatedAt)} AND ${eq(held, current.email)}`)
        .commit(),
      event: outboxEvent(tx, { tenantId, type: 'customer.updated', data: customer, now }),
      newEmail: emailChanges && tx.customerEmail.create({ tenantId, email, customerId }).commit(),
      oldEmail:
        emailChanges &&
        tx.customerEmail
          .delete({ tenantId, email: current.email })
          .where(({ customerId: holder }, { eq }) => eq(holder, customerId))
          .commit(),
    }));
    if (outcome.committed) return customer;
    if (outcome.refused('newEmail')) throw new ConflictError(EMAIL_TAKEN);
    // Changed or deleted since it was read: the next round reads it again (404 once it is gone).
  }
  throw new ConflictError('Customer was changed concurrently; retry');
}

/** Removes the customer and frees its e-mail; licenses keep their e-mail (and stay listed under it). */
export async function deleteCustomer(deps: CustomerDeps, tenantId: string, customerId: string): Promise<void> {
  for (let round = 0; round < WRITE_ROUNDS; round++) {
    const current = await loadCustomer(deps, tenantId, customerId);
    const outcome = await transact(deps.data, (tx) => ({
      customer: tx.customer.delete({ customerId }).where(({ email }, { eq }) => eq(email, current.email)).commit(),
      email: tx.customerEmail
        .delete({ tenantId, email: current.email })
        .where(({ customerId: holder }, { eq }) => eq(holder, customerId))
        .commit(),
      counters: counterUpdates(tx.counter, tenantId, counterNames.customers(), -1),
    }));
    if (outcome.committed) return;
  }
  throw new ConflictError('Customer was changed concurrently; retry');
}
