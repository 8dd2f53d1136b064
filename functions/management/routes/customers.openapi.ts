import * as z from 'zod/mini';
import type { toPayment, toSubscription } from '../../../shared/billing/index.js';
import type { Customer as CustomerView } from '../../../shared/customers/index.js';
import {
  type CustomerExport as CustomerExportView, type ErasedCustomer as ErasedCustomerView, type getCustomer, NO_PREVIEW_PRODUCT, PORTAL_OFF, type PortalPreview as PortalPreviewView,
} from '../../../shared/portal/index.js';
import { assertDescribes, defineOperations, described, EX, exampleActivation, exampleCustomer, exampleLicense, examplePage, examplePayment, exampleSubscription, idOf, jsonObject, named, nullableTimestamp, pageOf, timestamp } from '../../../shared/platform/openapi/index.js';
import { Activation } from './activations.openapi.js';
import { exampleFeedback, Feedback } from './analytics.openapi.js';
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
  country: described(text, 'ISO 3166-1 alpha-2 code, upper-case (e.g. `NL`); another value is 400.'),
  timezone: described(text, 'IANA time zone name (e.g. `Europe/Amsterdam`); another value is 400.'),
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
    planId: z.nullable(idOf('pln')),
    planName: text,
    billingCycle: text,
    price: z.nullable(z.number()),
    currency: text,
    productName: text,
    pendingPlanId: described(z.nullable(idOf('pln')), 'A downgrade asked for: the plan the subscription moves to at `pendingPlanEffectiveAt` (DECISIONS §15).'),
    pendingPlanEffectiveAt: nullableTimestamp,
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

export const ErasedCustomer = named(
  'ErasedCustomer',
  z.object({ ...customerFields, erasedAt: timestamp }),
  'A customer whose personal data was erased: `email` is `erased-<id>@invalid`, every other personal field `null`.',
);
assertDescribes<typeof ErasedCustomer, ErasedCustomerView>(true);

const erasedEmail = `erased-${EX.customerId}@invalid`;
export const exampleErasedCustomer = {
  ...exampleCustomer,
  email: erasedEmail,
  ...{ firstName: null, lastName: null, company: null, city: null, country: null, timezone: null, metadata: null },
  updatedAt: EX.updated,
  erasedAt: EX.updated,
};

const CustomerExport = named(
  'CustomerExport',
  z.object({
    exportedAt: timestamp,
    customer: Customer,
    licenses: z.array(z.object({ ...License.shape, activations: z.array(z.object({ ...Activation.shape, lastIpAddress: z.nullable(z.string()) })) })),
    payments: z.array(Payment),
    subscriptions: z.array(Subscription),
    feedback: z.array(Feedback),
  }),
  'Everything held on one customer: its licenses with every activation (the IP addresses recorded included), payments, subscriptions and the feedback it sent.',
);
assertDescribes<typeof CustomerExport, CustomerExportView>(true);

const PortalPreview = named(
  'PortalPreview',
  z.object({
    url: described(z.string(), 'A one-time link to the hosted portal as the customer sees it: `{base}/portal/preview?token=…`.'),
    expiresAt: described(timestamp, 'Five minutes after it was made: past it, or once used, the link opens a page saying so.'),
  }),
  "A vendor's \"View as customer\" link (the dashboard opens it in a new tab).",
);
assertDescribes<typeof PortalPreview, PortalPreviewView>(true);

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
  'GET /api/customers/{id}/export': {
    summary: "Export a customer's data",
    description:
      'Everything the service holds on the customer, as one JSON document (`content-disposition: attachment`), for a data-subject ' +
      'access request: the customer, the licenses carrying its e-mail with every activation and the IP addresses recorded, its ' +
      'payments and subscriptions, and the feedback it sent (with its e-mail as the contact, or through one of its licenses).',
    responses: {
      200: {
        description: 'The customer and what belongs to it',
        body: CustomerExport,
        examples: {
          export: {
            exportedAt: EX.updated,
            customer: exampleCustomer,
            licenses: [{ ...exampleLicense, activations: [{ ...exampleActivation, lastIpAddress: '203.0.113.7' }] }],
            payments: [examplePayment],
            subscriptions: [exampleSubscription],
            feedback: [{ ...exampleFeedback, licenseId: EX.licenseId, licenseKey: EX.licenseKey }],
          },
        },
        headers: { 'content-disposition': { description: '`attachment; filename="customer-<id>.json"`', required: true } },
      },
    },
  },
  'POST /api/customers/{id}/portal-preview': {
    summary: 'View the hosted portal as the customer',
    description:
      'A one-time link (5 minutes) that opens the hosted customer portal as this customer sees it, in a read-only preview session ' +
      '(1 hour): the page says it is a preview, shows no buttons that change anything, and every change posted from it is 403. ' +
      'Opened on `productId` (a live product of the vendor\'s, else 404), else on the product of the customer\'s newest license ' +
      '(none: 400). Every role that reads customers may ask (a preview changes nothing). The portal must be on (`PUT ' +
      '/api/portal-settings`), else 400. Leaves an audit entry `customer.portalPreview` (target: `portalSignIn` with the ' +
      "customer's id). The link is a credential: no `Idempotency-Key` replay keeps it.",
    requestBody: { examples: { newestLicense: {}, product: { productId: EX.productId } } },
    responses: {
      201: {
        description: 'The link',
        body: PortalPreview,
        examples: { link: { url: `${EX.baseUrl}/portal/preview?token=k3j5h2m7q4r6t2v5x7z3b4c6d2f5g7h3`, expiresAt: '2026-01-16T08:05:00.000Z' } },
      },
    },
    errors: { 400: [PORTAL_OFF, NO_PREVIEW_PRODUCT, 'productId must be a string'], 404: ['Product not found'] },
  },
  'POST /api/customers/{id}/erase': {
    summary: "Erase a customer's personal data",
    description:
      'Replaces the e-mail by `erased-<id>@invalid` and removes name, company, address, phone, timezone and metadata, on the customer ' +
      'and wherever the service keeps a copy: its licenses (`customerEmail`, `customerName`), their activations (IP addresses), its ' +
      "payments (the provider's invoice link), the feedback it sent (contact e-mail, metadata), purchase e-mails, and webhook " +
      'deliveries that carried it. Licenses keep their keys and keep working; activations, payments and subscriptions stay. Emits ' +
      '`customer.erased`. Erasing an erased customer answers it again and changes nothing.',
    responses: { 200: { description: 'The erased customer', body: ErasedCustomer, examples: { erased: exampleErasedCustomer } } },
    errors: { 409: ['Customer was changed concurrently; retry'] },
  },
});
