import * as z from 'zod/mini';
import { LICENSE_MESSAGES as M } from '../../shared/licensing/index.js';
import { defineOperations, EX, named } from '../../shared/platform/openapi/index.js';
import { RATE_LIMITS } from '../../shared/platform/rate-limits/index.js';

export const trialOperations = defineOperations({
  'POST /public/v1/trials': {
    summary: 'Start a no-card trial',
    description:
      "Issues a license of the plan (by slug; active and public) with the plan's seats, expiring after its `trialDays` (`trialEndsAt` the same), " +
      'and e-mails it (DECISIONS §15). One trial per e-mail and product, addresses compared lower-cased, without a `+tag`, and at gmail.com ' +
      'without dots (DECISIONS §20). A later paid checkout with the same e-mail for the product continues this license while it is still ' +
      'the payer\'s: the same key, with the paid plan\'s seats and expiry. Open to any origin; unknown fields are ignored.',
    security: [[]],
    rateLimits: [RATE_LIMITS.checkout],
    requestBody: { examples: { trial: { public_key: EX.publicKey, plan: 'pro', email: EX.email } } },
    responses: { 201: { description: 'Sent', body: named('TrialStarted', z.object({ sent: z.literal(true) })), examples: { sent: { sent: true } } } },
    errors: {
      400: ['This plan has no trial', 'email must be a valid e-mail address', 'plan is required'],
      404: [M.invalidPublicKey, 'Plan not found'],
      409: ['A trial was already started for this e-mail'],
    },
  },
});
