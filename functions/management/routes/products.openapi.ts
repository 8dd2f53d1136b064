import * as z from 'zod/mini';
import { PLAN_CHANGE_PRORATIONS, PRODUCT_STATUSES, PRODUCT_TYPES, UPDATES_AFTER_EXPIRY } from '../../../shared/platform/data/index.js';
import { defineOperations, described, EX, exampleId, examplePage, exampleProduct, exampleSigningKey, idOf, named, nullableTimestamp, pageOf, timestamp } from '../../../shared/platform/openapi/index.js';
import { SigningKey } from '../../../shared/licensing/index.js';

const text = z.nullable(z.string());

export const Product = named(
  'Product',
  z.object({
    id: idOf('prd'),
    name: z.string(),
    slug: z.string(),
    productType: z.enum(PRODUCT_TYPES),
    status: z.enum(PRODUCT_STATUSES),
    isPremium: z.boolean(),
    requiresLicense: z.boolean(),
    managesReleases: z.boolean(),
    licensePrefix: z.string(),
    description: text,
    logoUrl: text,
    bannerUrl: text,
    readmeUrl: text,
    homepage: text,
    icon: text,
    color: text,
    tested: text,
    requires: text,
    requiresPhp: text,
    stagingPatterns: described(
      z.nullable(z.array(z.string())),
      'Domain patterns of staging and local sites, which activate without taking a seat. `null`: the defaults (`localhost`, ' +
        '`*.localhost`, `{ip}` (any IP literal), `*.local`, `*.test`, `*.dev`, `*.example`, `*.invalid`, `staging.*`, `*.staging.*`, ' +
        '`dev.*`, `*.dev.*`, `*.wpengine.com`, `staging-*.kinsta.cloud`, `staging-*.kinsta.com`); `[]`: none.',
    ),
    stagingActivationLimit: described(z.number(), 'Staging sites one license may hold at once (default 3).'),
    returnOrigins: described(
      z.array(z.string()),
      'Origins (`https://host[:port]`; `http` only for `localhost`, `127.0.0.1`, `[::1]`) a checkout `return_url` may go to with the ' +
        'bought key. `[]` (the default): any origin, which lets a checkout link made by anyone send a buyer\'s key to any site.',
    ),
    public_key: z.string().check(z.regex(/^pk_[a-z2-7]{32}$/)),
    latestVersion: z.nullable(z.string()),
    plansCount: z.number(),
    offlineValidityDays: described(z.number(), 'Days an offline license file stays valid (1–365, default 30); editable.'),
    updatesAfterExpiry: described(
      z.enum(UPDATES_AFTER_EXPIRY),
      'What an expired license may still update to: `none` (the default: no download after expiry) or `releasedBeforeExpiry` (releases ' +
        'published before its `expiresAt`, with a "Renew your license to update to …" notice for newer ones).',
    ),
    renewalReminderDays: described(
      z.array(z.number()),
      'Days before `expiresAt` that a license which will not renew (no subscription, or one set to cancel) gets a reminder e-mail ' +
        'and a `license.expiring` event, once per day listed (1–60 each, at most 10, largest first; default `[7]`; `[]`: none).',
    ),
    graceDays: described(
      z.number(),
      'Days after the period of a failed subscription payment ends that its license stays valid (`inGrace`), 0–30 (default 7).',
    ),
    planChangeProration: described(
      z.enum(PLAN_CHANGE_PRORATIONS),
      "How a subscription's plan change is timed and prorated (DECISIONS §15): `upgradeNowDowngradeAtRenewal` (the default: an upgrade at once, " +
        'charged now; a downgrade at the period end), `prorateAll` (both at once, prorated) or `none` (both at once, no proration).',
    ),
    includes: described(
      z.array(idOf('prd')),
      'A bundle\'s (`productType: "bundle"`) included products: 2–100 live products of the account, none a bundle. A license of the bundle is one key for each (validate, activate, check, offline files), one seat per site across them. `[]` for any other product.',
    ),
    composerEnabled: described(
      z.boolean(),
      'The dashboard\'s Connect section and the license e-mails show how to install it with Composer (the `auth.json` and `repositories` ' +
        "snippet, DECISIONS §24); default false. The Composer repository serves every product a key covers either way.",
    ),
    features: described(
      z.array(z.object({ key: z.string(), name: z.string() })),
      'What plans may switch on inside the software (`hasFeature(key)` in the clients): `key` is 1–64 lower-case letters, digits or `-`, unique; ' +
        '`name` is shown to people. At most 100. Plans grant keys of it; licenses carry them.',
    ),
    signingKeys: described(
      z.array(SigningKey),
      'The keys that verify its signed answers and offline license files: the current one first, then those rotated out less than 7 days ago. Empty for a product made before signing keys, until a rotation.',
    ),
    createdAt: timestamp,
    updatedAt: timestamp,
    deletedAt: nullableTimestamp,
  }),
  'A product; unset optional fields are `null`. `public_key` identifies it on the public API; `deletedAt` is set by a (soft) delete.',
);
// No assertDescribes: toProduct spreads its optional text fields from a list, so its type has an index
// signature rather than those keys. The keys it writes are listed in OPTIONAL_TEXT; the contract test checks them.

const ProductPage = pageOf('ProductPage', Product);

const deleted = { 404: ['Product not found'] };

const STAGING_RULES =
  '**Staging and local sites**: a domain matching one of `stagingPatterns` activates without taking a seat (its activation is ' +
  '`environment: "staging"`, counted in the license\'s `stagingCount`), at most `stagingActivationLimit` (1–100, default 3) per ' +
  'license at once. A pattern is a host name, lower-case and in punycode, whose label `*` stands for one or more labels ' +
  '(`*.local` matches `shop.local`, not `local`; `staging.*` matches `staging.shop.com`) and whose `*` within a label stands for ' +
  'any characters of that label (`staging-*.kinsta.cloud` matches `staging-shop.kinsta.cloud`), or `{ip}` for any IP literal; it ' +
  'must name a label besides `*`. At most 50; kept once each. `null`: the defaults (`localhost`, `*.localhost`, `{ip}`, `*.local`, ' +
  '`*.test`, `*.dev`, `*.example`, `*.invalid`, `staging.*`, `*.staging.*`, `dev.*`, `*.dev.*`, `*.wpengine.com`, ' +
  '`staging-*.kinsta.cloud`, `staging-*.kinsta.com`: local copies, and the hosts EDD Software Licensing counts as free local ' +
  'copies); `[]`: no staging sites.';
const RETURN_ORIGINS =
  '**Return origins**: `returnOrigins` lists the origins (at most 20) a checkout `return_url` may have: the buyer comes back there ' +
  'with the license key they bought, so another origin is refused (`400 return_url is not allowed for this product`). Each is ' +
  '`https://host[:port]` (`http` only for `localhost`, `127.0.0.1` and `[::1]`), without a path, query or fragment; it is kept as ' +
  'browsers write origins (lower-case host, punycode, no default port), once each. `[]` (the default) accepts any origin: unsafe, ' +
  'and the dashboard warns. Checkout sees a change within 60 s (its product cache).';
const PRODUCT_ERRORS = [
  'returnOrigins.0: must be an https origin such as https://shop.example.com (http only for localhost)',
  'returnOrigins.0: must be an origin alone, without a path, query or fragment',
  'returnOrigins: must hold at most 20 origins',
  'stagingPatterns.0: must name at least one label besides *',
  'stagingPatterns.0: must be labels of a-z, 0-9, - or _ (or * for any labels, or for any characters within a label) joined by dots, or {ip}',
  'stagingPatterns: must hold at most 50 patterns',
  'stagingActivationLimit: Too small: expected number to be >=1',
  'features.0.key: must be 1–64 lower-case letters, digits or -',
  'features: reports is given twice',
  'A bundle includes 2 to 100 products',
  'A bundle cannot include itself',
  'A bundle cannot include another bundle',
  `includes: ${EX.productId} is not a product of this account`,
  'includes is only for a product of type bundle',
];

export const productOperations = defineOperations({
  'GET /api/products': {
    summary: 'List products',
    description: 'Newest first; `search` is a case-insensitive substring of the name or slug. Deleted products are left out.',
    queryExamples: { search: 'seo', status: 'active' },
    responses: { 200: { description: 'A page of products', body: ProductPage, examples: { page: examplePage([exampleProduct]) } } },
  },
  'POST /api/products': {
    summary: 'Create a product',
    description:
      'Defaults: `status: active`, `isPremium: false`, `requiresLicense: true`, `managesReleases: true`, `licensePrefix` = the slug ' +
      'upper-cased and cut to 8 characters plus `-`. A generated slug takes the first free of `slug`, `slug-2`, …\n\n' +
      STAGING_RULES +
      '\n\n' +
      RETURN_ORIGINS,
    requestBody: {
      examples: {
        minimal: { name: 'Acme SEO', productType: 'plugin' },
        full: { name: 'Acme SEO', productType: 'plugin', slug: 'acme-seo', description: 'Search engine tools for WordPress sites.', color: '#3366ff', homepage: 'https://acme.example.com/seo' },
        bundle: { name: 'Acme All Access', productType: 'bundle', includes: [EX.productId, exampleId('prd', 'forms')] },
      },
    },
    responses: { 201: { description: 'The product', body: Product, examples: { created: { ...exampleProduct, latestVersion: null, plansCount: 0 } } } },
    errors: {
      400: ['name is required', 'productType: Invalid option: expected one of "plugin"|"theme"|"app"|"library"|"saas"|"other"', ...PRODUCT_ERRORS],
      409: ['Slug is already taken'],
    },
  },
  'GET /api/products/{id}': {
    summary: 'Get a product',
    description: 'A deleted product is still answered, with `deletedAt`.',
    responses: { 200: { description: 'The product', body: Product, examples: { product: exampleProduct } } },
  },
  'PUT /api/products/{id}': {
    summary: 'Update a product',
    description:
      'Partial: only the fields given change; `null` clears an optional text field, and sets `stagingPatterns` and ' +
      '`stagingActivationLimit` back to their defaults. License operations see a change within 60 s (their product cache).\n\n' +
      STAGING_RULES +
      '\n\n' +
      RETURN_ORIGINS,
    requestBody: {
      examples: {
        rename: { name: 'Acme SEO Pro', description: null },
        stagingSites: { stagingPatterns: ['localhost', '{ip}', '*.local', 'staging.*', '*.preview.acme.example.com'], stagingActivationLimit: 5 },
        noStagingSites: { stagingPatterns: [] },
        returnOrigins: { returnOrigins: ['https://acme.example.com', 'https://shop.acme.example.com:8443', 'http://localhost:5173'] },
        features: { features: [{ key: 'reports', name: 'Reports' }, { key: 'white-label', name: 'White label' }] },
      },
    },
    responses: { 200: { description: 'The product', body: Product, examples: { updated: { ...exampleProduct, name: 'Acme SEO Pro', description: null } } } },
    errors: { ...deleted, 400: PRODUCT_ERRORS, 409: ['Slug is already taken', 'Product was changed concurrently; retry'] },
  },
  'DELETE /api/products/{id}': {
    summary: 'Delete a product (soft)',
    description: 'The product leaves lists and public surfaces treat it as unknown; `GET` still answers it with `deletedAt`. Its slug stays taken.',
    responses: { 204: { description: 'Deleted' } },
    errors: { 409: ['Product was changed concurrently; retry'] },
  },
  'POST /api/products/{id}/regenerate-public-key': {
    summary: 'Replace the public key',
    description: 'The old `public_key` stops identifying the product at once.',
    responses: { 200: { description: 'The product with its new key', body: Product, examples: { product: { ...exampleProduct, public_key: `pk_${'newkey'.repeat(6).slice(0, 32)}` } } } },
    errors: deleted,
  },
  'POST /api/products/{id}/signing-key/rotate': {
    summary: 'Rotate the signing key',
    description:
      'Makes a new current Ed25519 key. Each surface signs with it once its product cache takes it in (within 60 s); the key that ' +
      'signed until now stays listed and valid for verifiers for 7 days (`expiresAt`), and keys past their grace are dropped. ' +
      '`GET /public/v1/signing-key` lists the new key at once. A product made before signing keys gets its first key this way.',
    responses: {
      200: {
        description: 'The product with its keys',
        body: Product,
        examples: {
          rotated: {
            ...exampleProduct,
            signingKeys: [
              { ...exampleSigningKey, keyId: exampleId('sig', 'rotated'), createdAt: EX.updated },
              { ...exampleSigningKey, expiresAt: '2026-01-23T08:00:00.000Z', current: false },
            ],
          },
        },
      },
    },
    errors: { ...deleted, 409: ['Product was changed concurrently; retry'] },
  },
});
