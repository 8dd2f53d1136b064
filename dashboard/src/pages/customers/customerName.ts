import type { Customer } from '../../api/types';

/** "First Last", else the e-mail. */
export const customerName = (customer: Pick<Customer, 'firstName' | 'lastName' | 'email'>) =>
  [customer.firstName, customer.lastName].filter(Boolean).join(' ') || customer.email;
