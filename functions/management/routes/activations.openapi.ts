import * as z from 'zod/mini';
import type { Activation as ActivationView, ActivationListItem as ActivationListItemView } from '../../../shared/licensing/index.js';
import { ACTIVATION_ENVIRONMENTS, ACTIVATION_STATUSES } from '../../../shared/platform/data/index.js';
import { assertDescribes, defineOperations, described, EX, exampleActivation, exampleActivationListItem, examplePage, idOf, named, nullableTimestamp, pageOf, timestamp } from '../../../shared/platform/openapi/index.js';

const activationFields = {
  id: idOf('act'),
  licenseId: idOf('lic'),
  domain: described(z.nullable(z.string()), 'The site (normalized host name); null for a machine.'),
  machine: described(z.nullable(z.string()), 'The device\'s fingerprint (DECISIONS §18); null for a site.'),
  name: described(z.nullable(z.string()), 'The machine\'s name as its client reported it.'),
  platform: described(z.nullable(z.string()), 'The machine\'s platform as its client reported it (e.g. `darwin-arm64`).'),
  ipAddress: z.string(),
  status: z.enum(ACTIVATION_STATUSES),
  environment: described(
    z.enum(ACTIVATION_ENVIRONMENTS),
    '`staging`: a staging or local site (its domain matched one of the product\'s `stagingPatterns` when it was activated), which took no ' +
      'seat and counts in the license\'s `stagingCount`; `production`: a seat (`activatedCount`).',
  ),
  activatedAt: timestamp,
  deactivatedAt: nullableTimestamp,
  lastCheckedAt: nullableTimestamp,
};

export const Activation = named('Activation', z.object(activationFields), 'A license activated on one domain (normalized host name) or one machine; both take a seat alike.');
assertDescribes<typeof Activation, ActivationView>(true);

export const ActivationListItem = named(
  'ActivationListItem',
  z.object({
    ...activationFields,
    license: z.object({ id: idOf('lic'), key: z.string(), customerEmail: z.string() }),
    product: z.object({ id: idOf('prd'), name: z.string() }),
  }),
  'An activation with its license (the current key) and product.',
);
assertDescribes<typeof ActivationListItem, ActivationListItemView>(true);

export const activationOperations = defineOperations({
  'GET /api/activations': {
    summary: 'List activations',
    description: 'Newest first. `license_id` of another tenant, or unknown, lists nothing; one that is not a license id is 400.',
    queryExamples: { license_id: EX.licenseId, status: 'active' },
    responses: {
      200: { description: 'A page of activations', body: pageOf('ActivationPage', ActivationListItem), examples: { page: examplePage([exampleActivationListItem]) } },
    },
    errors: { 400: ['license_id: must be a license id'] },
  },
  'POST /api/activations/{id}/deactivate': {
    summary: 'Deactivate an activation',
    description:
      "Frees the seat (the license's `activatedCount` goes down; for a staging site, `stagingCount`) and emits `license.deactivated`. " +
      'Already deactivated: answered unchanged.',
    responses: {
      200: { description: 'The activation', body: Activation, examples: { deactivated: { ...exampleActivation, status: 'deactivated', deactivatedAt: EX.updated } } },
    },
  },
});
