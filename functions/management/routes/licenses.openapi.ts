import * as z from 'zod/mini';
import { CHANNELS } from '../../../shared/catalog/index.js';
import { LICENSE_STATUSES } from '../../../shared/platform/data/index.js';
import type { getLicense, License as LicenseView } from '../../../shared/licensing/index.js';
import { assertDescribes, defineOperations, described, EX, exampleActivation, exampleId, exampleLicense, examplePage, idOf, named, nullableTimestamp, pageOf, timestamp } from '../../../shared/platform/openapi/index.js';
import { RATE_LIMITS } from '../../../shared/platform/rate-limits/index.js';
import { Activation } from './activations.openapi.js';

export const licenseFields = {
  id: idOf('lic'),
  licenseKey: z.string(),
  productId: idOf('prd'),
  planId: z.nullable(idOf('pln')),
  customerId: z.nullable(idOf('cus')),
  customerEmail: z.string(),
  customerName: z.nullable(z.string()),
  status: z.enum(LICENSE_STATUSES),
  seats: z.number(),
  activatedCount: described(z.number(), 'Active production activations: the seats taken.'),
  stagingCount: described(z.number(), 'Active staging sites, which take no seat (at most the product\'s `stagingActivationLimit`).'),
  expiresAt: nullableTimestamp,
  graceUntil: described(
    nullableTimestamp,
    "Set by a failed subscription payment: the license stays valid (validate's `inGrace: true`) until then though `expiresAt` has passed, and expires then unless a payment succeeds first.",
  ),
  trialEndsAt: described(nullableTimestamp, 'When the trial the license was issued for ends (a checkout trial or a no-card trial); kept once paid.'),
  channel: described(z.enum(CHANNELS), 'The release channel the license receives: `stable`; `beta` (and stable); `alpha` (all three).'),
  floating: described(z.boolean(), 'Seats are borrowed by leases (`POST /v1/licenses/leases`), not held by activations.'),
  leaseSeconds: described(z.number(), 'How long a lease lives without a heartbeat (60–86400, default 900).'),
  features: described(
    z.array(z.string()),
    "Keys of the product's features the license carries: its plan's when issued from a plan or moved to one (a plan change), then as set by `PUT`. Returned by validate, activate and check, and in offline license files.",
  ),
  createdAt: timestamp,
  updatedAt: timestamp,
  product: z.object({ id: idOf('prd'), name: z.string(), slug: z.string() }),
};

export const License = named(
  'License',
  z.object(licenseFields),
  'A license: `licenseKey` is the product\'s prefix and four groups of four characters of `A-Z2-9` (no `0 O 1 I`); `expiresAt` null is lifetime.',
);
assertDescribes<typeof License, LicenseView>(true);

const LicenseWithActivations = named(
  'LicenseWithActivations',
  z.object({ ...licenseFields, activations: z.array(Activation) }),
  'A license with every activation, newest first.',
);
assertDescribes<typeof LicenseWithActivations, Awaited<ReturnType<typeof getLicense>>>(true);

const concurrent = 'License was changed concurrently; retry';

export const licenseOperations = defineOperations({
  'GET /api/licenses': {
    summary: 'List licenses',
    description:
      'Newest first. `search` shaped like a key is an exact key lookup; anything else matches the start of the customer e-mail. ' +
      '`status` and `product_id` combine with each other and with `search`.',
    queryExamples: { search: 'jane@', status: 'active', product_id: EX.productId },
    responses: { 200: { description: 'A page of licenses', body: pageOf('LicensePage', License), examples: { page: examplePage([exampleLicense]) } } },
    errors: { 400: ['product_id: must be a product id'] },
  },
  'POST /api/licenses': {
    summary: 'Create a license',
    description:
      "Initial status `active`; `seats` defaults to the plan's `siteLimit`, else 1; `channel` to the plan's, else `stable`; `features` to the plan's, else none; `expiresAt` absent or null is lifetime. Links (or creates, " +
      'with `customer.created`) the customer with that e-mail, and emits `license.created`.',
    requestBody: {
      examples: {
        minimal: { productId: EX.productId, customerEmail: EX.email },
        fromPlan: { productId: EX.productId, planId: EX.planId, customerEmail: EX.email, customerName: 'Jane Doe', seats: 3, expiresAt: EX.expires },
        withFeatures: { productId: EX.productId, customerEmail: EX.email, features: ['reports', 'white-label'] },
      },
    },
    responses: { 201: { description: 'The license', body: License, examples: { created: { ...exampleLicense, activatedCount: 0, stagingCount: 0 } } } },
    errors: {
      400: ['productId is required', 'customerEmail: must be a valid e-mail address', 'seats: must be a whole number', 'Unknown feature: exports'],
      404: ['Product not found', 'Plan not found'],
      409: ['License could not be created because of concurrent changes; retry'],
    },
  },
  'GET /api/licenses/{id}': {
    summary: 'Get a license with its activations',
    responses: { 200: { description: 'The license', body: LicenseWithActivations, examples: { license: { ...exampleLicense, activations: [exampleActivation] } } } },
  },
  'GET /api/licenses/{id}/leases': {
    summary: "List a floating license's live leases",
    description: 'The machines holding its seats now, by slot; an expired lease is not listed (its seat is free).',
    responses: {
      200: {
        description: 'The live leases',
        body: named('LiveLeases', z.object({ data: z.array(z.object({ id: idOf('lse'), machine: z.string(), slot: z.number(), expiresAt: timestamp })) })),
        examples: { leases: { data: [{ id: exampleId('lse', 'lease'), machine: '9f2c4e1ab07d6c3e5f8a9b0c1d2e3f4a', slot: 0, expiresAt: EX.expires }] } },
      },
    },
  },
  'PUT /api/licenses/{id}': {
    summary: 'Update a license',
    description:
      'Partial; `null` clears `customerName` and `expiresAt` (lifetime). A status change only changes the status: revoke also deactivates. ' +
      "`features` replaces the license's feature keys; each must be a feature of its product (400 `Unknown feature: <key>`).",
    requestBody: {
      examples: { suspend: { status: 'suspended' }, moreSeats: { seats: 5, expiresAt: null }, beta: { channel: 'beta' }, floating: { floating: true, leaseSeconds: 600 }, features: { features: ['reports', 'white-label'] } },
    },
    responses: { 200: { description: 'The license', body: License, examples: { updated: { ...exampleLicense, status: 'suspended' } } } },
    errors: { 400: ["seats cannot be below the license's 2 active activations", "Deactivate the license's activations before making it floating", 'Unknown feature: exports'], 409: [concurrent] },
  },
  'DELETE /api/licenses/{id}': {
    summary: 'Delete a license',
    description: 'The license, its key and its activations are removed; no event is emitted.',
    responses: { 204: { description: 'Deleted' } },
    errors: { 409: [concurrent, 'License was deleted, but some of its activations were changed concurrently; retry'] },
  },
  'POST /api/licenses/{id}/revoke': {
    summary: 'Revoke a license',
    description: 'Status `revoked`, every active activation deactivated, `license.revoked` emitted once.',
    responses: { 200: { description: 'The license', body: License, examples: { revoked: { ...exampleLicense, status: 'revoked', activatedCount: 0, stagingCount: 0 } } } },
    errors: { 409: [concurrent] },
  },
  'POST /api/licenses/{id}/transfer': {
    summary: 'Transfer a license to another customer',
    description:
      'Moves the license, with the same key, to the customer with `email` (created, with `customer.created`, when new); `name` becomes the ' +
      "license's `customerName` (absent: none). Without `keepActivations: true` every active activation is deactivated (seats and staging " +
      'places given back) and every live lease of a floating license ends (`lease.released`). Emits `license.transferred` and e-mails the ' +
      'new owner the key. The subscription that bills the license, if any, stays with the customer who pays for it. At most 100 transfers ' +
      'a day per account, with those of the portal API.',
    rateLimits: [RATE_LIMITS.licenseTransferTenant],
    requestBody: {
      examples: {
        fresh: { email: 'new.owner@example.com', name: 'Sam Owner' },
        keepSites: { email: 'new.owner@example.com', keepActivations: true },
      },
    },
    responses: {
      200: {
        description: 'The license as it now is',
        body: License,
        examples: { transferred: { ...exampleLicense, customerEmail: 'new.owner@example.com', customerName: 'Sam Owner', activatedCount: 0, stagingCount: 0 } },
      },
    },
    errors: { 400: ['A revoked license cannot be transferred', 'The license already belongs to this e-mail', 'email: must be a valid e-mail address'], 409: [concurrent] },
  },
  'POST /api/licenses/{id}/regenerate': {
    summary: 'Replace the license key',
    description: 'A new key; the old one is unknown from this moment. Id and activations stay.',
    responses: { 200: { description: 'The license with its new key', body: License, examples: { regenerated: { ...exampleLicense, licenseKey: 'ACME-SEO-B8RT-W2LK-Q5MZ-D7HV' } } } },
    errors: { 409: [concurrent] },
  },
});
