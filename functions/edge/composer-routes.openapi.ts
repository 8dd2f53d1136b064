import * as z from 'zod/mini';
import { COMPOSER_REALM, LICENSE_MESSAGES as M, PACKAGE_NOT_FOUND } from '../../shared/licensing/index.js';
import { RATE_LIMITS } from '../../shared/platform/rate-limits/index.js';
import { defineOperations, EX, named } from '../../shared/platform/openapi/index.js';

const VENDOR = { schema: z.string(), description: "The account's Composer vendor name (`GET /api/account/settings`)", example: 'acme' };
const challenge = { 'www-authenticate': { description: `\`Basic realm="${COMPOSER_REALM}"\`, on 401`, required: false } };
const unauthorized = [
  'A license key is required as the user name (HTTP Basic auth)',
  M.notFound,
  M.revoked,
  M.suspended,
  M.expired,
];

const example = `acme/${'acme-seo'}`;

const ComposerRoot = named(
  'ComposerRoot',
  z.object({ packages: z.object({}), 'metadata-url': z.string(), 'available-packages': z.array(z.string()) }),
  "A Composer 2 repository's root: where each package's metadata is, and the packages the key may install (each with at least one version).",
);

const ComposerVersion = z.object({
  name: z.string(),
  version: z.string(),
  type: z.enum(['wordpress-plugin', 'wordpress-theme', 'library']),
  description: z.optional(z.string()),
  homepage: z.optional(z.string()),
  time: z.optional(z.string()),
  dist: z.object({ type: z.literal('zip'), url: z.string(), shasum: z.string() }),
  require: z.optional(z.object({ php: z.string() })),
});
const ComposerMetadata = named(
  'ComposerMetadata',
  z.object({ packages: z.record(z.string(), z.array(ComposerVersion)) }),
  "One package's versions the key may install, newest first: every published release on the license's channels (within updates after " +
    'expiry for an expired license), rollouts not applied. `dist.shasum` is the SHA-1 of the ZIP as uploaded (empty for releases made ' +
    'before it was kept); `require.php` is `>=` the release\'s (else the product\'s) `requiresPhp`. Packages require nothing else: a project ' +
    'that wants plugins under `wp-content` adds `composer/installers` itself.',
);

const dist = (version: string) => ({ type: 'zip', url: `${EX.baseUrl}/composer/dist/${example}/${EX.releaseId}.zip`, shasum: '2fd4e1c67a2d28fced849ee1bb76e7391b93eb12', version });

export const composerOperations = defineOperations({
  'GET /composer/packages.json': {
    summary: 'Composer repository root',
    description:
      'The licensed Composer 2 repository (docs/composer.md): add `{"type": "composer", "url": "<base>/composer"}` to `repositories` and ' +
      "the license key to `auth.json` (`http-basic`). Lists, as `<vendor>/<slug>`, each product the key covers: its own (a bundle's: each " +
      'included product). A missing, unknown, revoked or suspended key, or an expired one whose product keeps nothing after expiry, is ' +
      `401 with \`WWW-Authenticate: Basic realm="${COMPOSER_REALM}"\`.`,
    security: [['licenseKeyBasic']],
    responses: {
      200: {
        description: 'The repository',
        body: ComposerRoot,
        examples: { repository: { packages: {}, 'metadata-url': `${EX.baseUrl}/composer/p2/%package%.json`, 'available-packages': [example] } },
      },
      401: { description: 'No usable license key', headers: challenge },
    },
    errors: { 401: unauthorized },
    rateLimits: [RATE_LIMITS.edgeReads],
  },
  'GET /composer/p2/{vendor}/{file}': {
    summary: "A package's Composer metadata",
    description:
      '`{file}` is `<slug>.json` (`<slug>~dev.json`, which Composer may ask for, lists no version: every version is tagged). Another ' +
      "account's package, a product the key does not cover, or any other path is 404.",
    security: [['licenseKeyBasic']],
    pathParameters: {
      vendor: VENDOR,
      file: { schema: z.string(), description: 'The package file: `<product slug>.json` or `<product slug>~dev.json`', example: 'acme-seo.json' },
    },
    responses: {
      200: {
        description: 'The versions the key may install',
        body: ComposerMetadata,
        examples: {
          package: {
            packages: {
              [example]: [{ name: example, version: '2.0.0', type: 'wordpress-plugin', time: EX.created, dist: (({ version: _, ...rest }) => rest)(dist('2.0.0')), require: { php: '>=8.1' } }],
            },
          },
        },
      },
      401: { description: 'No usable license key', headers: challenge },
    },
    errors: { 401: unauthorized, 404: [PACKAGE_NOT_FOUND] },
    rateLimits: [RATE_LIMITS.edgeReads],
  },
  'GET /composer/dist/{vendor}/{package}/{file}': {
    summary: "A version's ZIP (Composer dist)",
    description:
      'The `dist.url` of a version: 302 to the file in storage (a URL valid 5 minutes). Counts a download of the release and, the first ' +
      'time this key installs this release, a sighting of the site (the password, when it reads as a domain) in the overview; takes no ' +
      "seat. A release the key may not install is 404; one published after an expired license's expiry, 403 `License has expired`.",
    security: [['licenseKeyBasic']],
    pathParameters: {
      vendor: VENDOR,
      package: { schema: z.string(), description: "The product's slug", example: 'acme-seo' },
      file: { schema: z.string(), description: 'The release: `<releaseId>.zip`', example: `${EX.releaseId}.zip` },
    },
    responses: {
      302: {
        description: 'To the file',
        headers: {
          location: { description: 'A storage URL valid 5 minutes that saves the file under its original name', required: true },
          'cache-control': { description: '`no-store`', required: true },
        },
      },
      401: { description: 'No usable license key', headers: challenge },
    },
    errors: { 401: unauthorized, 403: [M.expired], 404: [PACKAGE_NOT_FOUND] },
    rateLimits: [RATE_LIMITS.downloads],
  },
});
