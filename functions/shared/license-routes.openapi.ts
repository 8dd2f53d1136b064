import * as z from 'zod/mini';
import { ACTIVATION_ENVIRONMENTS } from '../../shared/platform/data/index.js';
import { type AnswerBinding, BOUND_ANSWER_HEADERS, BOUND_ANSWER_NOTE, BOUND_FIELDS, LICENSE_MESSAGES as M, NONCE_HEADER_PARAMETER, SIGNED_ANSWER_HEADERS, SIGNED_ANSWER_NOTE, type Validation } from '../../shared/licensing/index.js';
import { CHANNELS } from '../../shared/catalog/index.js';
import { assertDescribes, defineOperations, described, EX, exampleProductSummary, idOf, named, nullableTimestamp, type OperationDoc, timestamp } from '../../shared/platform/openapi/index.js';
import { RATE_LIMITS } from '../../shared/platform/rate-limits/index.js';
import type { LicenseSurface } from './license-routes.js';
import { leaseOperations } from './lease-routes.openapi.js';

const featuresDoc =
  "Keys of the product's features the license carries (its plan's, or as the vendor set them): the software switches features on with `hasFeature(key)` in the clients. Covered by the answer's signature.";
/** What activate and check say of the license: its features. */
const licenseFeatures = described(z.object({ features: described(z.array(z.string()), featuresDoc) }), 'The license the key names.');

export const ValidLicense = named(
  'ValidLicense',
  z.object({
    valid: z.literal(true),
    license: z.object({
      key: z.string(),
      status: described(z.string(), 'A usable license is `active`.'),
      seats: z.number(),
      activatedCount: described(z.number(), 'Seats taken: active production activations.'),
      stagingCount: described(z.number(), 'Active staging and local sites, which take no seat.'),
      expiresAt: nullableTimestamp,
      channel: described(z.enum(CHANNELS), 'The release channel it receives (`stable`, `beta`: beta and stable, `alpha`: all): a plugin shows its "Beta updates" opt-in only above `stable`.'),
      inGrace: described(
        z.boolean(),
        'Always present. `true` while a failed subscription payment\'s grace keeps the license valid though `expiresAt` has passed (until the ' +
          "failed period's end + the product's `graceDays`): a plugin may ask the customer to update their card.",
      ),
      features: described(z.array(z.string()), featuresDoc),
    }),
    product: described(
      z.object({ id: idOf('prd'), name: z.string(), slug: z.string() }),
      "The product the call is about: for a bundle's license, the included product named (`product_slug`, or the public key's), else the bundle. Its key signs the answer.",
    ),
    products: z.optional(
      described(
        z.array(z.object({ id: idOf('prd'), slug: z.string(), name: z.string() })),
        "A bundle's license (`productType: \"bundle\"`): every product the key validates, activates and updates, one seat per site across them all.",
      ),
    ),
    lease: z.optional(
      described(
        z.object({ leaseId: idOf('lse'), expiresAt: timestamp }),
        'A floating license validated with `machine`: the live lease that machine holds.',
      ),
    ),
    ...BOUND_FIELDS,
  }),
  'A usable license: `expiresAt` null is lifetime.',
);
assertDescribes<typeof ValidLicense, Validation & { valid: true } & AnswerBinding>(true);

const environment = described(
  z.enum(ACTIVATION_ENVIRONMENTS),
  '`staging`: the domain is a staging or local site (by the product\'s `stagingPatterns`), which took no seat; `production`: it took a seat.',
);
const Activated = named(
  'Activated',
  z.object({ success: z.literal(true), activation_id: idOf('act'), environment, license: licenseFeatures, ...BOUND_FIELDS }),
  'The activation of the domain (a new one, or the one it already had).',
);
const PublicActivated = named(
  'PublicActivated',
  z.object({ success: z.literal(true), activation_id: idOf('act'), activated_at: timestamp, environment, license: licenseFeatures, ...BOUND_FIELDS }),
  'The activation of the domain (a new one, or the one it already had) and when it was made.',
);
const Deactivated = named('Deactivated', z.object({ success: z.literal(true), ...BOUND_FIELDS }));
const OfflineLicense = named(
  'OfflineLicense',
  z.object({
    license_file: described(z.string(), 'The signed file (format v1, docs/api.md): save it as it is and verify it offline.'),
    key_id: idOf('sig'),
    issued_at: timestamp,
    valid_until: described(timestamp, "`issued_at` + the product's `offlineValidityDays`, or the license's `expiresAt` when that comes first."),
  }),
  'An offline license file bound to one activated domain.',
);
const CheckResult = named(
  'ActivationCheck',
  z.union([
    z.object({ activated: z.literal(true), activation_id: idOf('act'), license: licenseFeatures, ...BOUND_FIELDS }),
    z.object({ activated: z.literal(false), activation_id: z.null(), license: licenseFeatures, ...BOUND_FIELDS }),
  ]),
  'Whether the domain holds an active activation of the license.',
);

const licenseStates = [M.revoked, M.suspended, M.expired];
const bodyRules = (fields: string) =>
  `Fields: ${fields}. Unknown fields are ignored (plugins send extras); the fields that are read keep strict types, and \`null\` ` +
  'for an optional one reads as absent. `site` is an alias of `domain` (`domain` wins). Domains are normalized: scheme, `www.`, port, ' +
  'path and trailing dot dropped, lower-cased. A device sends `machine` (1–128 printable characters, its fingerprint) in place of ' +
  '`domain`, with optional `name` and `platform`; both or (where one is required) neither is 400 `Send either domain or machine`.';

/** Validate, activate and deactivate (and check on the public API), as `licenseRoutes` builds them for a surface. */
export function licenseOperations(surface: LicenseSurface) {
  const { prefix, publicKey } = surface;
  const key = publicKey ? { public_key: EX.publicKey, license_key: EX.licenseKey } : { license_key: EX.licenseKey };
  const keyErrors = publicKey ? [M.invalidPublicKey, M.notFound] : [M.notFound];
  const required = publicKey ? ['public_key is required', 'license_key is required'] : ['license_key is required'];
  const identified = publicKey ? ' The product is identified by `public_key` in the body; another product\'s license is `License key not found`.' : '';
  const reads = [publicKey ? RATE_LIMITS.publicReads : RATE_LIMITS.edgeReads];
  const writes = [RATE_LIMITS.activationKey, RATE_LIMITS.activationAddress];
  const operations: Record<string, OperationDoc> = {
    ...leaseOperations(surface),
    [`POST ${prefix}/licenses/validate`]: {
      summary: 'Validate a license key',
      description:
        'Every refusal, bad input included, is `{valid: false, error}` with its status. `product_slug` checks that the key is of that ' +
        `product; \`domain\` (or \`machine\`) is bookkeeping only and never changes the answer, except on a floating license: there a \`machine\` is valid only while it holds a live lease (\`lease\` in the answer; else 400 \`${M.noLease}\`).${identified}\n\n${bodyRules('`license_key` (required), `product_slug`, `domain` or `site`')}${BOUND_ANSWER_NOTE}`,
      headerParameters: NONCE_HEADER_PARAMETER,
      requestBody: { examples: { validate: { ...key, product_slug: 'acme-seo', domain: EX.domain } } },
      responses: {
        200: {
          description: 'The key is usable',
          body: ValidLicense,
          headers: BOUND_ANSWER_HEADERS,
          examples: { valid: { valid: true, license: { key: EX.licenseKey, status: 'active', seats: 3, activatedCount: 1, stagingCount: 1, expiresAt: EX.expires, channel: 'stable', inGrace: false, features: ['reports'] }, product: exampleProductSummary, license_key: EX.licenseKey, domain: EX.domain } },
        },
      },
      errors: { 400: [...required, 'Send either domain or machine', M.noLease, M.wrongProduct, ...licenseStates], 403: [M.notCovered], 404: keyErrors },
      errorBody: 'validation',
      boundAnswers: true,
      rateLimits: reads,
    },
    [`POST ${prefix}/licenses/activate`]: {
      summary: 'Activate a license on a domain or machine',
      description:
        'Takes a seat for the domain (or the machine: `machine`, with optional `name` and `platform`; seats count both alike; a floating ' +
        'license takes leases instead, 400). The domain. An already active domain answers its existing activation (even when the license is full); a ' +
        'deactivated domain gets a new activation when a seat is free. A staging or local site (the domain matches one of the product\'s ' +
        '`stagingPatterns`: by default `localhost`, `*.localhost`, IP literals, `*.local`, `*.test`, `*.dev`, `*.example`, ' +
        '`*.invalid`, `staging.*`, `*.staging.*`, `dev.*`, `*.dev.*`, `*.wpengine.com`, `staging-*.kinsta.cloud`, `staging-*.kinsta.com`) takes no seat: it is answered `environment: "staging"` and counts in the license\'s `stagingCount`, at most ' +
        'the product\'s `stagingActivationLimit` (default 3) at once, beyond which it is refused (`Staging activation limit reached`). ' +
        `Emits \`license.activated\`.${identified}\n\n${bodyRules('`license_key` and `domain` (or `site`), both required')}${BOUND_ANSWER_NOTE}`,
      headerParameters: NONCE_HEADER_PARAMETER,
      requestBody: { examples: { activate: { ...key, domain: `https://www.${EX.domain}/shop` } } },
      responses: {
        200: publicKey
          ? { description: 'Activated', body: PublicActivated, headers: BOUND_ANSWER_HEADERS, examples: { activated: { success: true, activation_id: EX.activationId, activated_at: EX.updated, environment: 'production', license: { features: ['reports'] }, license_key: EX.licenseKey, domain: EX.domain } } }
          : { description: 'Activated', body: Activated, headers: BOUND_ANSWER_HEADERS, examples: { activated: { success: true, activation_id: EX.activationId, environment: 'production', license: { features: ['reports'] }, license_key: EX.licenseKey, domain: EX.domain } } },
      },
      errors: { 400: [...required, 'Send either domain or machine', 'domain is not a valid domain or URL', M.seatLimit, M.stagingLimit, M.floating, M.wrongProduct, ...licenseStates], 403: [M.notCovered], 404: keyErrors },
      rateLimits: writes,
      boundAnswers: true,
    },
    [`POST ${prefix}/licenses/deactivate`]: {
      summary: 'Deactivate a license on a domain',
      description:
        'Frees the seat of the domain, or of `activation_id` (with both, both must match; a staging site frees its place in ' +
        '`stagingCount`); allowed whatever the license\'s state. Emits ' +
        `\`license.deactivated\`.${identified}\n\n${bodyRules('`license_key` (required), and `domain` (or `site`) or `activation_id`')}${BOUND_ANSWER_NOTE}`,
      headerParameters: NONCE_HEADER_PARAMETER,
      requestBody: { examples: { byDomain: { ...key, domain: EX.domain }, byId: { ...key, activation_id: EX.activationId } } },
      responses: { 200: { description: 'Deactivated', body: Deactivated, headers: BOUND_ANSWER_HEADERS, examples: { deactivated: { success: true, license_key: EX.licenseKey, domain: EX.domain } } } },
      errors: { 400: [...required, 'domain, machine or activation_id is required', 'Send either domain or machine', M.activationNotFound], 403: [M.notCovered], 404: keyErrors },
      rateLimits: writes,
      boundAnswers: true,
    },
  };
  if (publicKey) {
    operations[`POST ${prefix}/licenses/check`] = {
      summary: 'Check whether a domain is activated',
      description: `A license that cannot be used answers its 400 error, so the plugin can say why.${identified}\n\n${bodyRules('`public_key`, `license_key` and `domain` (or `site`), all required')}${BOUND_ANSWER_NOTE}`,
      headerParameters: NONCE_HEADER_PARAMETER,
      requestBody: { examples: { check: { ...key, domain: EX.domain } } },
      responses: {
        200: {
          description: 'Whether the domain is activated',
          body: CheckResult,
          headers: BOUND_ANSWER_HEADERS,
          examples: {
            activated: { activated: true, activation_id: EX.activationId, license: { features: ['reports'] }, license_key: EX.licenseKey, domain: EX.domain },
            notActivated: { activated: false, activation_id: null, license: { features: ['reports'] }, license_key: EX.licenseKey, domain: EX.domain },
          },
        },
      },
      errors: { 400: [...required, 'Send either domain or machine', M.wrongProduct, ...licenseStates], 403: [M.notCovered], 404: keyErrors },
      rateLimits: reads,
      boundAnswers: true,
    };
    operations[`POST ${prefix}/licenses/offline`] = {
      summary: 'Issue an offline license file',
      description:
        'A signed license file (Ed25519) bound to one active activation of the license, for sites that cannot reach the service: ' +
        "it holds the product, the license (key, status, seats, expiry, features), the activation and its domain, when it was issued and until " +
        "when it is valid (the product's `offlineValidityDays`, default 30, never past the license's `expiresAt`). Verify it with the " +
        "product's keys (`GET /public/v1/signing-key`) and nothing but Ed25519: the format, the verification steps and test vectors " +
        `are in docs/api.md. Nothing is written; a product made before signing keys has none until its vendor rotates one in.${identified}\n\n` +
        `${bodyRules('`public_key`, `license_key` and `domain` (or `site`), all required')}${SIGNED_ANSWER_NOTE}`,
      headerParameters: NONCE_HEADER_PARAMETER,
      requestBody: { examples: { offline: { ...key, domain: EX.domain } } },
      responses: {
        200: {
          description: 'The license file',
          body: OfflineLicense,
          headers: SIGNED_ANSWER_HEADERS,
          examples: {
            file: {
              license_file: '-----BEGIN LICENSE FILE v1-----\neyJmb3JtYXQiOiJsaWNlbnNlLWZpbGUiLCJ2ZXJzaW9uIjoxLCJrZXlJZCI6InNp\n…\n-----SIGNATURE-----\nuQlo+QX1fFcfCOvRRnbuwb/X/hDAo2H7PwjrmbOW1Da/hgh+kg/fdvRke210/rJmkQvGTE01INTTOPCHhMvnAw==\n-----END LICENSE FILE v1-----\n',
              key_id: EX.signingKeyId,
              issued_at: EX.updated,
              valid_until: '2026-02-15T08:00:00.000Z',
            },
          },
        },
      },
      errors: {
        400: [...required, 'Send either domain or machine', 'domain is not a valid domain or URL', M.activationNotFound, ...licenseStates, 'Offline license files are not available for this product'],
        403: [M.notCovered],
        404: keyErrors,
      },
      rateLimits: reads,
    };
  }
  return defineOperations(operations as Record<`POST ${string}`, OperationDoc>);
}
