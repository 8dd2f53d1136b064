import * as z from 'zod/mini';
import { GETTING_STARTED_STEPS } from '../../../shared/insights/index.js';
import { defineOperations, EX, exampleId, examplePage, idOf, jsonObject, named, pageOf, timestamp } from '../../../shared/platform/openapi/index.js';

const origin = {
  licenseId: z.nullable(idOf('lic')),
  licenseKey: z.nullable(z.string()),
  domain: z.nullable(z.string()),
};
export const Feedback = named(
  'Feedback',
  z.object({
    id: idOf('fbk'),
    productId: idOf('prd'),
    type: z.enum(['bug', 'feature', 'general']),
    message: z.string(),
    email: z.nullable(z.string()),
    ...origin,
    metadata: z.nullable(jsonObject),
    createdAt: timestamp,
  }),
  'Feedback an installed product sent; `licenseId`/`licenseKey` only when the key sent was one of the product\'s licenses.',
);
const UsageEvent = named(
  'UsageEvent',
  z.object({ id: idOf('uev'), productId: idOf('prd'), event: z.string(), properties: z.nullable(jsonObject), ...origin, createdAt: timestamp }),
  'A usage event an installed product sent.',
);
const DeactivationReason = named(
  'DeactivationReason',
  z.object({ id: idOf('drs'), productId: idOf('prd'), reason: z.string(), details: z.nullable(z.string()), ...origin, createdAt: timestamp }),
  'Why a site deactivated the product.',
);
const Tally = z.record(z.string(), z.number());
const AnalyticsDay = named(
  'AnalyticsDay',
  z.object({ date: z.string(), activeInstalls: z.number(), versions: Tally, events: Tally, feedback: Tally, deactivationReasons: Tally }),
  'One UTC day: distinct activations seen by a validate, check or update check (`activeInstalls`), those by the version they reported, and counts by name.',
);
const Analytics = named(
  'ProductAnalytics',
  z.object({ from: z.string(), to: z.string(), days: z.array(AnalyticsDay), totals: z.object({ events: Tally, feedback: Tally, deactivationReasons: Tally }) }),
  'Daily analytics of a product over a range of days (every day listed), with the totals of the range.',
);
const InstallShare = z.array(z.object({ version: z.string(), count: z.number() }));
const Overview = named(
  'Overview',
  z.object({
    currency: z.string(),
    revenue: z.object({ total: z.number(), byDay: z.array(z.object({ date: z.string(), amount: z.number() })) }),
    revenueByCurrency: z.array(z.object({ currency: z.string(), total: z.number(), byDay: z.array(z.object({ date: z.string(), amount: z.number() })) })),
    refunds: z.object({ total: z.number(), count: z.number() }),
    mrr: z.number(),
    activeSubscriptions: z.number(),
    newLicenses: z.number(),
    churnedSubscriptions: z.number(),
    activeInstalls: z.number(),
    installsByDay: z.array(z.object({ date: z.string(), count: z.number() })),
    installsByVersion: InstallShare,
    installsByPhp: InstallShare,
    installsByWp: InstallShare,
  }),
  'The account\'s business over a range of days (DECISIONS §19), in its main currency (`currency`, major units): gross revenue by day, ' +
    'refunds counted apart on their day, new licenses and churned subscriptions of the range; `mrr` and `activeSubscriptions` as of now; ' +
    'distinct sites seen in the 7 days that end the range (`activeInstalls`, a HyperLogLog estimate: ±1.6% standard error), ' +
    'the sites seen each day of the range (`installsByDay`, beside DECISIONS §19\'s fields, for the chart), ' +
    'gross revenue in every currency sold in over the range (`revenueByCurrency`, the main currency first and always there, for the chart), ' +
    'and those days\' sites by the product, PHP and WordPress versions they reported.',
);

const FirstActivation = named(
  'FirstActivation',
  z.object({
    firstActivation: z.nullable(
      z.object({ site: z.string(), licenseId: z.nullable(idOf('lic')), activatedAt: timestamp }),
    ),
  }),
  "A product's first activation: the site's domain or the machine's name (else its fingerprint), or null while none has activated.",
);
const GettingStarted = named(
  'GettingStarted',
  z.object({
    steps: z.array(z.object({ step: z.enum(GETTING_STARTED_STEPS), done: z.boolean() })),
    productId: z.nullable(idOf('prd')),
  }),
  'A new account\'s first steps (DECISIONS §22), in order, each `done` from the account\'s state: `createProduct` a live product; ' +
    '`uploadRelease` a published release of one; `connectPlugin` a first activation of one; `connectStripe` a connected payment provider; ' +
    '`shareCheckoutLink` a checkout a buyer opened. `productId`: the oldest live product, which the later steps are about.',
);

const record = { licenseId: EX.licenseId, licenseKey: EX.licenseKey, domain: EX.domain, createdAt: EX.created };
export const exampleFeedback = { id: exampleId('fbk', 'feedback'), productId: EX.productId, type: 'bug', message: 'The sitemap skips drafts.', email: EX.email, ...record, metadata: { wp: '6.7' } };
const exampleEvent = { id: exampleId('uev', 'event'), productId: EX.productId, event: 'settings_saved', properties: { tab: 'sitemap' }, ...record };
const exampleReason = { id: exampleId('drs', 'reason'), productId: EX.productId, reason: 'too_expensive', details: 'Renewal price doubled', ...record };
const range = 'From `from` to `to` (UTC days, `YYYY-MM-DD`, both included; at most the retention, `ANALYTICS_RETENTION_DAYS`, back).';
const rangeErrors = ['from: must be a date (YYYY-MM-DD)', 'to: must be a date (YYYY-MM-DD)', 'from must not be after to'];
const notFound = { 404: ['Product not found'] };

export const analyticsOperations = defineOperations({
  'GET /api/products/{id}/feedback': {
    summary: "List a product's feedback",
    description: `Newest first, paginated. ${range} \`type\` keeps one kind.`,
    queryExamples: { type: 'bug', from: '2026-01-01', to: '2026-01-31' },
    responses: { 200: { description: 'A page of feedback', body: pageOf('FeedbackPage', Feedback), examples: { page: examplePage([exampleFeedback]) } } },
    errors: { 400: rangeErrors, ...notFound },
  },
  'GET /api/products/{id}/events': {
    summary: "List a product's usage events",
    description: `Newest first, paginated. ${range} \`event\` keeps one event name.`,
    queryExamples: { event: 'settings_saved' },
    responses: { 200: { description: 'A page of events', body: pageOf('UsageEventPage', UsageEvent), examples: { page: examplePage([exampleEvent]) } } },
    errors: { 400: rangeErrors, ...notFound },
  },
  'GET /api/products/{id}/deactivation-reasons': {
    summary: "List a product's deactivation reasons",
    description: `Newest first, paginated. ${range}`,
    responses: {
      200: { description: 'A page of reasons', body: pageOf('DeactivationReasonPage', DeactivationReason), examples: { page: examplePage([exampleReason]) } },
    },
    errors: { 400: rangeErrors, ...notFound },
  },
  'GET /api/products/{id}/analytics': {
    summary: "A product's daily analytics",
    description: 'From the daily counts alone. Default range: the last 30 days; at most 366 days.',
    queryExamples: { from: '2026-01-14', to: '2026-01-15' },
    responses: {
      200: {
        description: 'Every day of the range',
        body: Analytics,
        examples: {
          twoDays: {
            from: '2026-01-14',
            to: '2026-01-15',
            days: [
              { date: '2026-01-14', activeInstalls: 2, versions: { '2.0.0': 2 }, events: { settings_saved: 3 }, feedback: { bug: 1 }, deactivationReasons: {} },
              { date: '2026-01-15', activeInstalls: 1, versions: { '2.0.1': 1 }, events: {}, feedback: {}, deactivationReasons: { too_expensive: 1 } },
            ],
            totals: { events: { settings_saved: 3 }, feedback: { bug: 1 }, deactivationReasons: { too_expensive: 1 } },
          },
        },
      },
    },
    errors: { 400: [...rangeErrors, 'The range may span at most 366 days'], ...notFound },
  },
  'GET /api/products/{id}/first-activation': {
    summary: "A product's first activation",
    description:
      'The first site or machine that activated a license of the product, recorded once, as it happened (the dashboard\'s "waiting for ' +
      'the first activation" polls it). Null until then; a later deactivation does not change it.',
    responses: {
      200: {
        description: 'The first activation, or null',
        body: FirstActivation,
        examples: {
          activated: { firstActivation: { site: EX.domain, licenseId: EX.licenseId, activatedAt: EX.created } },
          waiting: { firstActivation: null },
        },
      },
    },
    errors: notFound,
  },
  'GET /api/getting-started': {
    summary: "The account's first steps",
    description:
      'The checklist the dashboard\'s overview shows a new account: create a product, upload a release, connect a plugin, connect Stripe, ' +
      'share a checkout link, each ticked from what the account holds.',
    responses: {
      200: {
        description: 'The steps, in order',
        body: GettingStarted,
        examples: {
          halfway: {
            steps: [
              { step: 'createProduct', done: true },
              { step: 'uploadRelease', done: true },
              { step: 'connectPlugin', done: false },
              { step: 'connectStripe', done: false },
              { step: 'shareCheckoutLink', done: false },
            ],
            productId: EX.productId,
          },
        },
      },
    },
  },
  'GET /api/analytics/overview': {
    summary: "The account's overview",
    description:
      'Revenue, refunds, MRR, subscriptions, new licenses, churn and active installs by version, from aggregates kept as things happen ' +
      '(never a scan). Default range: the last 30 days; at most 366 days. `product_id` narrows every figure to one product.',
    queryExamples: { from: '2026-01-01', to: '2026-01-31', product_id: EX.productId },
    responses: {
      200: {
        description: 'The overview of the range',
        body: Overview,
        examples: {
          twoDays: {
            currency: 'USD',
            revenue: { total: 128, byDay: [{ date: '2026-01-30', amount: 49 }, { date: '2026-01-31', amount: 79 }] },
            revenueByCurrency: [
              { currency: 'USD', total: 128, byDay: [{ date: '2026-01-30', amount: 49 }, { date: '2026-01-31', amount: 79 }] },
              { currency: 'EUR', total: 45, byDay: [{ date: '2026-01-30', amount: 0 }, { date: '2026-01-31', amount: 45 }] },
            ],
            refunds: { total: 49, count: 1 },
            mrr: 6.58,
            activeSubscriptions: 1,
            newLicenses: 2,
            churnedSubscriptions: 0,
            activeInstalls: 3,
            installsByDay: [{ date: '2026-01-30', count: 2 }, { date: '2026-01-31', count: 3 }],
            installsByVersion: [{ version: '2.0.1', count: 2 }, { version: '2.0.0', count: 1 }],
            installsByPhp: [{ version: '8.3', count: 2 }],
            installsByWp: [{ version: '6.7', count: 2 }],
          },
        },
      },
    },
    errors: { 400: [...rangeErrors, 'The range may span at most 366 days', 'product_id: must be a product id'], ...notFound },
  },
});
