import * as z from 'zod/mini';
import type { toPayment, toSubscription } from '../../../shared/customers/billing-views.js';
import type { Customer as CustomerView } from '../../../shared/customers/customer-view.js';
import type { getCustomer } from '../../../shared/customers/get-customer.js';
import { idOf, jsonObject, nullableTimestamp, pageOf, timestamp } from '../../../shared/openapi/common.js';
import { EX, exampleCustomer, exampleLicense, examplePage, examplePayment, exampleSubscription } from '../../../shared/openapi/examples.js';
import { assertDescribes, defineOperations, named } from '../../../shared/openapi/operation.js';
import { License } from './licenses.openapi.js';

const text = z.nullable(z.string());
const customerFields = {
  id: idOf('cus'),
  email: z.string(),
  firstName: text,
  lastName: text,
  company: text,
  phone: text,
  street: text,
  city: text,
  state: text,
  postalCode: text,
  country: text,
  timezone: text,
  metadata: z.nullable(jsonObject),
  createdAt: timestamp,
  updatedAt: timestamp,
};

export const Customer = named('Customer', z.object(customerFields), 'A customer of the vendor; `email` is unique per vendor and stored lower-cased.');
assertDescribes<typeof Customer, CustomerView>(true);

export const Payment = named(
  'Payment',
  z.object({
    id: idOf('pay'),
    amount: z.number(),
    currency: z.string(),
    status: z.enum(['completed', 'refunded']),
    paymentMethod: z.string(),
    invoicePdfUrl: z.nullable(z.string()),
    productName: z.nullable(z.string()),
    createdAt: timestamp,
  }),
  'A payment (the portal calls it an invoice): `amount` in major units of `currency`.',
);
assertDescribes<typeof Payment, ReturnType<typeof toPayment>>(true);

export const Subscription = named(
  'Subscription',
  z.object({
    id: idOf('sub'),
    status: z.string(),
    currentPeriodStart: nullableTimestamp,
    currentPeriodEnd: nullableTimestamp,
    cancelAtPeriodEnd: z.boolean(),
    canceledAt: nullableTimestamp,
    planName: text,
    billingCycle: text,
    price: z.nullable(z.number()),
    currency: text,
    productName: text,
  }),
  "A subscription bought through checkout; `status` is Stripe's (`active`, `trialing`, `past_due`, `canceled`, …).",
);
assertDescribes<typeof Subscription, ReturnType<typeof toSubscription>>(true);

const CustomerDetail = named(
  'CustomerDetail',
  z.object({ ...customerFields, licenses: z.array(License), payments: z.array(Payment), subscriptions: z.array(Subscription) }),
  "A customer with the vendor's licenses carrying its e-mail, its payments and subscriptions, each newest first.",
);
assertDescribes<typeof CustomerDetail, Awaited<ReturnType<typeof getCustomer>>>(true);

const emailTaken = 'A customer with this email already exists';

export const customerOperations = defineOperations({
  'GET /api/customers': {
    summary: 'List customers',
    description: 'Newest first; `search` matches the start of the e-mail or of "first last", case-insensitively.',
    queryExamples: { search: 'jane' },
    responses: { 200: { description: 'A page of customers', body: pageOf('CustomerPage', Customer), examples: { page: examplePage([exampleCustomer]) } } },
  },
  'POST /api/customers': {
    summary: 'Create a customer',
    description: 'Emits `customer.created`.',
    requestBody: { examples: { customer: { email: EX.email, firstName: 'Jane', lastName: 'Doe', country: 'NL', metadata: { crmId: '4711' } } } },
    responses: { 201: { description: 'The customer', body: Customer, examples: { created: exampleCustomer } } },
    errors: { 400: ['email is required', 'metadata: must nest at most 8 levels'], 409: [emailTaken] },
  },
  'GET /api/customers/{id}': {
    summary: 'Get a customer with licenses, payments and subscriptions',
    responses: {
      200: {
        description: 'The customer',
        body: CustomerDetail,
        examples: { customer: { ...exampleCustomer, licenses: [exampleLicense], payments: [examplePayment], subscriptions: [exampleSubscription] } },
      },
    },
  },
  'PUT /api/customers/{id}': {
    summary: 'Update a customer',
    description: 'Partial; `null` clears an optional field (not `email`). Emits `customer.updated`.',
    requestBody: { examples: { move: { city: 'Amsterdam', phone: null } } },
    responses: { 200: { description: 'The customer', body: Customer, examples: { updated: { ...exampleCustomer, city: 'Amsterdam' } } } },
    errors: { 409: [emailTaken, 'Customer was changed concurrently; retry'] },
  },
  'DELETE /api/customers/{id}': {
    summary: 'Delete a customer',
    description: 'The e-mail is free again; licenses, payments and subscriptions stay.',
    responses: { 204: { description: 'Deleted' } },
  },
});
