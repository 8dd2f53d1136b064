import * as z from 'zod/mini';
import { DELIVERY_STATUSES } from '../../../shared/platform/data/index.js';
import { type Delivery as DeliveryView, EVENT_TYPES, type SendResult, type Webhook as WebhookView } from '../../../shared/messaging/index.js';
import { assertDescribes, defineOperations, EX, examplePage, exampleWebhook, idOf, named, nullableTimestamp, pageOf, timestamp } from '../../../shared/platform/openapi/index.js';

export const Webhook = named(
  'Webhook',
  z.object({
    id: idOf('whk'),
    name: z.string(),
    url: z.string(),
    secret: z.string().check(z.regex(/^whsec_[A-Za-z0-9+/=]+$/)),
    events: z.array(z.string()),
    enabled: z.boolean(),
    lastTriggeredAt: nullableTimestamp,
    createdAt: timestamp,
    updatedAt: timestamp,
  }),
  'An outbound webhook: events of the subscribed kinds are POSTed to `url`, signed with `secret` (Standard Webhooks; see `webhooks` in this document).',
);
assertDescribes<typeof Webhook, WebhookView>(true);

const Delivery = named(
  'Delivery',
  z.object({
    id: idOf('dlv'),
    eventId: idOf('evt'),
    eventType: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.number(),
    responseStatus: z.nullable(z.number()),
    lastError: z.nullable(z.string()),
    lastAttemptAt: nullableTimestamp,
    nextAttemptAt: nullableTimestamp,
    createdAt: timestamp,
  }),
  'One event sent to one webhook: `responseStatus` 0 means no answer (then `lastError` says why); `nextAttemptAt` is set while a retry is scheduled.',
);
assertDescribes<typeof Delivery, DeliveryView>(true);

const TestResult = named(
  'WebhookTestResult',
  z.object({ success: z.boolean(), status: z.number(), statusText: z.string() }),
  'What the webhook URL answered to a test event; no answer is `{success: false, status: 0, statusText: <reason>}`.',
);
assertDescribes<typeof TestResult, SendResult>(true);

const exampleDelivery = {
  id: EX.deliveryId,
  eventId: EX.eventId,
  eventType: 'license.created',
  status: 'succeeded',
  attempts: 1,
  responseStatus: 200,
  lastError: null,
  lastAttemptAt: EX.created,
  nextAttemptAt: null,
  createdAt: EX.created,
};

export const webhookOperations = defineOperations({
  'GET /api/webhooks': {
    summary: 'List webhooks and every event kind',
    description: 'All webhooks, oldest first (not paginated), and every event kind a webhook can subscribe to.',
    responses: {
      200: {
        description: 'The webhooks and event kinds',
        body: named('WebhookList', z.object({ items: z.array(Webhook), events: z.array(z.enum(EVENT_TYPES)) })),
        examples: { webhooks: { items: [exampleWebhook], events: [...EVENT_TYPES] } },
      },
    },
  },
  'POST /api/webhooks': {
    summary: 'Create a webhook',
    description:
      '`url` is http(s) (https only in AWS, and never a private or loopback address there); `events` a non-empty list of kinds; ' +
      '`secret`, when given, is `whsec_` and base64 of 24–64 bytes, otherwise one is generated.',
    requestBody: { examples: { webhook: { name: 'CRM sync', url: 'https://crm.example.com/hooks/licenses', events: ['license.created', 'license.activated'] } } },
    responses: { 201: { description: 'The webhook with its secret', body: Webhook, examples: { created: exampleWebhook } } },
    errors: { 400: ['events: must name at least one event', 'url: must be an https URL', 'url: must not point to a private or loopback address'] },
  },
  'GET /api/webhooks/{id}': {
    summary: 'Get a webhook',
    responses: { 200: { description: 'The webhook', body: Webhook, examples: { webhook: exampleWebhook } } },
  },
  'PUT /api/webhooks/{id}': {
    summary: 'Update a webhook',
    description: 'Partial; the secret changes only through regenerate-secret.',
    requestBody: { examples: { disable: { enabled: false } } },
    responses: { 200: { description: 'The webhook', body: Webhook, examples: { updated: { ...exampleWebhook, enabled: false } } } },
  },
  'DELETE /api/webhooks/{id}': {
    summary: 'Delete a webhook',
    description: 'Its pending deliveries end `failed` at their next attempt.',
    responses: { 204: { description: 'Deleted' } },
  },
  'POST /api/webhooks/{id}/regenerate-secret': {
    summary: 'Replace the signing secret',
    description: 'Every later send, including retries of earlier events, is signed with the new secret.',
    responses: { 200: { description: 'The webhook with its new secret', body: Webhook, examples: { regenerated: { ...exampleWebhook, secret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0' } } } },
  },
  'POST /api/webhooks/{id}/test': {
    summary: 'Send a test event',
    description: 'Sends a signed `webhook.test` event at once (enabled or not) and reports the answer; nothing is recorded or retried. Waits at most 8 s.',
    responses: {
      200: {
        description: 'What the URL answered',
        body: TestResult,
        examples: { delivered: { success: true, status: 200, statusText: 'OK' }, unreachable: { success: false, status: 0, statusText: 'connect ECONNREFUSED 203.0.113.9:443' } },
      },
    },
  },
  'GET /api/webhooks/{id}/deliveries': {
    summary: "List a webhook's deliveries",
    description: 'Newest first.',
    responses: { 200: { description: 'A page of deliveries', body: pageOf('DeliveryPage', Delivery), examples: { page: examplePage([exampleDelivery]) } } },
  },
  'POST /api/webhooks/{id}/deliveries/{deliveryId}/redeliver': {
    summary: 'Send a delivery again',
    description: 'A new delivery of the same body with the same `webhook-id`, queued at once with a fresh retry schedule.',
    responses: {
      202: { description: 'The new delivery', body: Delivery, examples: { queued: { ...exampleDelivery, id: `dlv_${'again'.repeat(5).slice(0, 24)}`, status: 'pending', attempts: 0, responseStatus: null, lastAttemptAt: null } } },
    },
  },
});
