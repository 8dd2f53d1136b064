import * as z from 'zod/mini';
import { LICENSE_MESSAGES as M, SigningKey } from '../../shared/licensing/index.js';
import { assertDescribes, defineOperations, EX, exampleSigningKey, named } from '../../shared/platform/openapi/index.js';
import { RATE_LIMITS } from '../../shared/platform/rate-limits/index.js';
import type { PublicSigningKey } from '../../shared/catalog/index.js';

assertDescribes<typeof SigningKey, PublicSigningKey>(true);

export const signingOperations = defineOperations({
  'GET /public/v1/signing-key': {
    summary: "List a product's signing keys",
    description:
      'The public keys that verify the product\'s signed answers (RFC 9421 `keyid`) and offline license files (`keyId`): the current ' +
      'key first, then those rotated out less than 7 days ago. Read afresh on every call (a rotation shows at once); fetch it again ' +
      'when an answer names a key id you do not know. Empty for a product made before signing keys until its vendor rotates one in. ' +
      'Open to any origin.',
    responses: {
      200: {
        description: 'The keys',
        body: named('SigningKeyList', z.object({ keys: z.array(SigningKey) })),
        headers: { 'cache-control': { description: '`no-cache`', required: true } },
        examples: {
          keys: {
            keys: [
              { ...exampleSigningKey, keyId: EX.signingKeyId },
              { ...exampleSigningKey, keyId: EX.previousSigningKeyId, createdAt: '2025-06-01T09:00:00.000Z', expiresAt: '2026-01-22T10:30:00.000Z', current: false },
            ],
          },
        },
      },
    },
    errors: { 400: ['public_key is required'], 404: [M.invalidPublicKey] },
    rateLimits: [RATE_LIMITS.publicReads],
  },
});
