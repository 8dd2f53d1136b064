import * as z from 'zod/mini';
import { LICENSE_MESSAGES as M } from '../../shared/licensing/index.js';
import { defineOperations, EX, exampleId, named } from '../../shared/platform/openapi/index.js';
import { RATE_LIMITS } from '../../shared/platform/rate-limits/index.js';

const Created = named('RecordCreated', z.object({ id: z.string() }), 'The id of the stored record.');
const Accepted = named('EventAccepted', z.object({ accepted: z.literal(true) }));
const origin = 'A `license_key` of another product (or of none) is dropped, not refused; `domain` is stored normalized (host name only).';
const tooLarge = { 413: ['Request body too large'] };

export const analyticsOperations = defineOperations({
  'POST /public/v1/feedback': {
    summary: 'Send feedback',
    description: `Stores feedback for the vendor's inbox (DECISIONS §8). ${origin}`,
    security: [[]],
    requestBody: {
      examples: { bug: { public_key: EX.publicKey, type: 'bug', message: 'The sitemap skips drafts.', email: EX.email, license_key: EX.licenseKey, domain: EX.domain, metadata: { wp: '6.7' } } },
    },
    responses: { 201: { description: 'Stored', body: Created, examples: { created: { id: exampleId('fbk', 'feedback') } } } },
    errors: {
      400: ['type must be one of bug, feature, general', 'message is required', 'message must be at most 5000 characters', 'email must be a valid e-mail address', 'metadata must be an object', 'metadata: must nest at most 8 levels', 'metadata: must be at most 8192 bytes as JSON'],
      404: [M.invalidPublicKey],
      ...tooLarge,
    },
    rateLimits: [RATE_LIMITS.analytics],
  },
  'POST /public/v1/events': {
    summary: 'Track a usage event',
    description: `Accepts the event (202) once the body and \`public_key\` are checked, and queues it: it is stored and counted in the product's daily analytics within seconds, and kept \`ANALYTICS_RETENTION_DAYS\` (90 by default). ${origin}`,
    security: [[]],
    requestBody: { examples: { saved: { public_key: EX.publicKey, event: 'settings_saved', properties: { tab: 'sitemap' }, license_key: EX.licenseKey, domain: EX.domain } } },
    responses: { 202: { description: 'Accepted', body: Accepted, examples: { accepted: { accepted: true } } } },
    errors: {
      400: ['event is required', 'event must be at most 100 characters', 'properties must be an object', 'properties: must nest at most 8 levels', 'properties: must be at most 8192 bytes as JSON'],
      404: [M.invalidPublicKey],
      ...tooLarge,
    },
    rateLimits: [RATE_LIMITS.analytics],
  },
  'POST /public/v1/deactivation-reasons': {
    summary: 'Tell why a site deactivated the product',
    description: `Stores the reason and counts it in the product's daily analytics. ${origin}`,
    security: [[]],
    requestBody: { examples: { price: { public_key: EX.publicKey, reason: 'too_expensive', details: 'Renewal price doubled', domain: EX.domain } } },
    responses: { 201: { description: 'Stored', body: Created, examples: { created: { id: exampleId('drs', 'reason') } } } },
    errors: { 400: ['reason is required', 'reason must be at most 100 characters', 'details must be at most 5000 characters'], 404: [M.invalidPublicKey], ...tooLarge },
    rateLimits: [RATE_LIMITS.analytics],
  },
});
