import * as z from 'zod/mini';
import { LICENSE_STATUSES } from '../../shared/platform/data/index.js';
import { assertDescribes, defineOperations, described, EX, examplePayment, exampleSubscription, idOf, named, nullableTimestamp, timestamp } from '../../shared/platform/openapi/index.js';
import type { portalDownloads, portalLicenses, portalOverview } from '../../shared/portal/index.js';
import { RATE_LIMITS } from '../../shared/platform/rate-limits/index.js';
import { ROLE_REFUSED } from '../../shared/identity/index.js';
import { Payment, Subscription } from '../management/routes/customers.openapi.js';
import { hostedPortalOperations } from './hosted/routes.openapi.js';
import { examplePendingPlanChange, examplePlanChange, PLAN_CHANGE_DESCRIPTION, PLAN_CHANGE_ERRORS, PlanChange } from '../management/routes/subscriptions.openapi.js';

/** `{data: …}`: every portal answer (SERVICE-SPEC §4.7). */
const envelope = <T extends z.core.$ZodType>(id: string, data: T) => named(id, z.object({ data }));

const Overview = named(
  'PortalOverview',
  z.object({ email: z.string(), activeLicenses: z.number(), totalLicenses: z.number(), activeSubscriptions: z.number() }),
  'Counts of one customer: an active license is one usable now; an active subscription is `active`, `trialing` or `past_due`.',
);
assertDescribes<typeof Overview, Awaited<ReturnType<typeof portalOverview>>>(true);

const PortalLicense = named(
  'PortalLicense',
  z.object({
    id: idOf('lic'),
    licenseKey: z.string(),
    status: z.enum(LICENSE_STATUSES),
    seats: z.number(),
    siteCount: z.number(),
    stagingCount: z.number(),
    expiresAt: nullableTimestamp,
    createdAt: timestamp,
    productName: z.nullable(z.string()),
    productSlug: z.nullable(z.string()),
    products: described(
      z.array(z.object({ name: z.string(), slug: z.string() })),
      "What the key is for: its product, or a bundle's included products (DECISIONS §23); empty once the product is deleted.",
    ),
  }),
  "A customer's license; `siteCount` is its active production activations (the seats taken), `stagingCount` its active staging and local sites (which take no seat).",
);
assertDescribes<typeof PortalLicense, Awaited<ReturnType<typeof portalLicenses>>[number]>(true);

const PortalDownload = named(
  'PortalDownload',
  z.object({
    productName: z.string(),
    productSlug: z.string(),
    releaseId: idOf('rel'),
    version: z.string(),
    fileName: z.string(),
    fileSize: z.number(),
    releaseNotes: z.nullable(z.string()),
    releasedAt: timestamp,
    downloadUrl: z.string(),
  }),
  'The latest release of a product the customer holds a usable license of; `downloadUrl` is a signed link valid 24 hours.',
);
assertDescribes<typeof PortalDownload, Awaited<ReturnType<typeof portalDownloads>>[number]>(true);

const emailRule =
  'Scoped by the key\'s owner and `email` (compared lower-cased): another vendor\'s key sees nothing of the same e-mail, and an e-mail ' +
  'with no customer gets empty lists and zero counts. The service trusts `email`: check that the signed-in user owns it first.';
const common = { errors: { 400: ['email is required'] }, rateLimits: [RATE_LIMITS.portal], queryExamples: { email: EX.email } };

export const portalOperations = defineOperations({
  'GET /v1/portal/overview': {
    ...common,
    summary: "A customer's counts",
    description: emailRule,
    responses: {
      200: {
        description: 'The counts',
        body: envelope('PortalOverviewAnswer', Overview),
        examples: { overview: { data: { email: EX.email, activeLicenses: 1, totalLicenses: 1, activeSubscriptions: 1 } } },
      },
    },
  },
  'GET /v1/portal/licenses': {
    ...common,
    summary: "A customer's licenses",
    description: `Newest first. ${emailRule}`,
    responses: {
      200: {
        description: 'The licenses',
        body: envelope('PortalLicenses', z.array(PortalLicense)),
        examples: {
          licenses: {
            data: [{ id: EX.licenseId, licenseKey: EX.licenseKey, status: 'active', seats: 3, siteCount: 1, stagingCount: 0, expiresAt: EX.expires, createdAt: EX.created, productName: 'Acme SEO', productSlug: 'acme-seo', products: [{ name: 'Acme SEO', slug: 'acme-seo' }] }],
          },
        },
      },
    },
  },
  'GET /v1/portal/downloads': {
    ...common,
    summary: "A customer's latest downloads",
    description: `One entry per product the customer holds a usable license of; each call issues fresh links. ${emailRule}`,
    responses: {
      200: {
        description: 'The downloads',
        body: envelope('PortalDownloads', z.array(PortalDownload)),
        examples: {
          downloads: {
            data: [
              {
                productName: 'Acme SEO',
                productSlug: 'acme-seo',
                releaseId: EX.releaseId,
                version: '2.0.0',
                fileName: 'acme-seo-2.0.0.zip',
                fileSize: 482133,
                releaseNotes: 'Faster sitemaps.',
                releasedAt: EX.created,
                downloadUrl: `${EX.baseUrl}/dl/${EX.releaseId}?expires=1768559400&signature=3f8a…`,
              },
            ],
          },
        },
      },
    },
  },
  'GET /v1/portal/invoices': {
    ...common,
    summary: "A customer's payments",
    description: `Newest first. ${emailRule}`,
    responses: { 200: { description: 'The payments', body: envelope('PortalInvoices', z.array(Payment)), examples: { invoices: { data: [examplePayment] } } } },
  },
  'GET /v1/portal/subscriptions': {
    ...common,
    summary: "A customer's subscriptions",
    description: `Newest first. ${emailRule}`,
    responses: {
      200: { description: 'The subscriptions', body: envelope('PortalSubscriptions', z.array(Subscription)), examples: { subscriptions: { data: [exampleSubscription] } } },
    },
  },
  'POST /v1/portal/subscriptions/{id}/cancel': {
    ...common,
    summary: 'Cancel a subscription at period end',
    description:
      'Calls Stripe (`cancel_at_period_end=true`), then records it; the customer keeps access until `currentPeriodEnd`, and Stripe\'s later ' +
      'events sync the final state. Nothing is recorded when Stripe fails. Reads no body.',
    responses: {
      200: {
        description: 'Flagged for cancellation',
        body: envelope('PortalCancellation', named('Cancellation', z.object({ id: idOf('sub'), cancelAtPeriodEnd: z.literal(true) }))),
        examples: { cancelled: { data: { id: EX.subscriptionId, cancelAtPeriodEnd: true } } },
      },
    },
    errors: {
      400: ['email is required', 'No payment provider is connected', 'Subscription is not billed through the payment provider', 'Stripe refused the secret key'],
      403: [ROLE_REFUSED],
      502: ['Payment provider unavailable'],
    },
  },
  'POST /v1/portal/licenses/{id}/transfer': {
    summary: 'Transfer a license to another person',
    description:
      'Body `{email, toEmail}`: the license of the customer with `email` moves, with the same key, to the customer with `toEmail` (created ' +
      'when new). Every active activation is deactivated (the new owner activates their own sites). Emits `license.transferred` and e-mails ' +
      'the new owner the key. A license that does not carry `email` is 404, as another vendor\'s; a revoked one is 400. The service trusts ' +
      '`email`: check that the signed-in user owns it first. At most 100 transfers a day per vendor, with those of the management API.',
    rateLimits: [RATE_LIMITS.portal, RATE_LIMITS.licenseTransferTenant],
    requestBody: { examples: { transfer: { email: EX.email, toEmail: 'new.owner@example.com' } } },
    responses: {
      200: {
        description: 'Transferred',
        body: envelope(
          'PortalTransfer',
          named(
            'Transfer',
            z.object({ id: idOf('lic'), licenseKey: z.string(), customerEmail: z.string(), status: z.enum(LICENSE_STATUSES), activatedCount: z.number() }),
            'The license as it now is: its new owner and its (freed) seats.',
          ),
        ),
        examples: { transferred: { data: { id: EX.licenseId, licenseKey: EX.licenseKey, customerEmail: 'new.owner@example.com', status: 'active', activatedCount: 0 } } },
      },
    },
    errors: {
      400: ['email is required', 'toEmail: must be a valid e-mail address', 'A revoked license cannot be transferred', 'The license already belongs to this e-mail'],
      403: [ROLE_REFUSED],
      404: ['License not found'],
      409: ['License was changed concurrently; retry'],
    },
  },
  'POST /v1/portal/subscriptions/{id}/change-plan': {
    rateLimits: [RATE_LIMITS.portal],
    summary: "Change a customer's subscription plan",
    description: `${PLAN_CHANGE_DESCRIPTION} The customer's \`email\` travels in the body; a subscription of another customer is 404.`,
    requestBody: { examples: { upgrade: { email: EX.email, planId: EX.planId } } },
    responses: {
      200: {
        description: 'The change, applied or pending',
        body: envelope('PortalPlanChange', PlanChange),
        examples: { upgrade: { data: examplePlanChange }, downgrade: { data: examplePendingPlanChange } },
      },
    },
    errors: { ...PLAN_CHANGE_ERRORS, 400: ['email is required', ...PLAN_CHANGE_ERRORS[400]], 403: [ROLE_REFUSED] },
  },
  'GET /dl/{releaseId}': {
    summary: 'Download through a signed portal link',
    description:
      'The `downloadUrl` of `GET /v1/portal/downloads`: no credential but the link\'s own signature (HMAC-SHA256 over `releaseId.expires`, 24 h). ' +
      'Answers 302 to the file in storage and counts the download.',
    security: [[]],
    queryExamples: { expires: '1768559400', signature: '3f8a0c…' },
    responses: {
      302: {
        description: 'To the file',
        headers: { location: { description: 'A storage URL valid 5 minutes (attachment, original file name)', required: true }, 'cache-control': { description: '`no-store`', required: true } },
      },
    },
    errors: { 403: ['Invalid or expired download link'], 404: ['Release not found'] },
  },
  ...hostedPortalOperations,
});
