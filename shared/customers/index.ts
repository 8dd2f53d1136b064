/** The public surface of the customers context: what other contexts and the functions use of it (docs/architecture.md). */
export { customerLinkItems, resolveCustomerLink } from './customer-link.js';
export type { CustomerLink } from './customer-link.js';
export { nameSearchOf, normalizeEmail, toCustomer } from './customer-view.js';
export type { Customer, CustomerItem } from './customer-view.js';
export { createCustomer, deleteCustomer, listCustomers, loadCustomer, updateCustomer } from './customers.js';
export { metadataSchema } from './metadata.js';
