import * as z from 'zod/mini';
import { LICENSE_MESSAGES as M, type listVersions, NONCE_HEADER_PARAMETER, SIGNED_ANSWER_HEADERS, type updateInfo } from '../../shared/licensing/index.js';
import { RATE_LIMITS } from '../../shared/platform/rate-limits/index.js';
import { assertDescribes, defineOperations, described, EX, named } from '../../shared/platform/openapi/index.js';
import { CHANNELS } from '../../shared/catalog/index.js';

const text = z.nullable(z.string());
const UpdateInfo = named(
  'UpdateInfo',
  z.object({
    name: z.string(),
    slug: z.string(),
    version: text,
    new_version: text,
    url: text,
    package: z.optional(z.string()),
    tested: text,
    requires: text,
    requires_php: text,
    upgrade_notice: described(
      z.optional(z.string()),
      'Text without tags, HTML-escaped. For an expired license whose renewal would bring a newer release: `Renew your license to update to <version>`. ' +
        "Otherwise the offered version's notice from its readme.txt (`== Upgrade Notice ==`), when it has one.",
    ),
    renewal_url: described(
      z.optional(z.string()),
      "Beside the renew notice, when the license was issued from a plan: that plan's checkout URL (`/public/v1/checkout/{planId}?public_key=…`), " +
        'where the customer renews.',
    ),
    icons: z.object({ '1x': text, '2x': text }),
    banners: z.object({ low: text, high: text }),
    sections: z.object({
      description: z.string(),
      changelog: z.string(),
      installation: z.optional(z.string()),
      faq: z.optional(z.string()),
      screenshots: z.optional(z.string()),
    }),
  }),
  'WordPress plugin update information about the release offered to this site (docs/api.md, Release channels and rollouts): the newest ' +
    'published one on a channel it may receive, whose requirements its `php` and `wp` meet, and whose rollout includes it. `version` ' +
    'and `new_version` both name it (null when none qualifies); `package` (the licensed download) is there only for a key that may ' +
    "download it. `sections` (safe HTML) come from the release's readme.txt where it has them, else from the product's description and " +
    'the releases\' notes.',
);
assertDescribes<typeof UpdateInfo, ReturnType<typeof updateInfo>>(true);

const VersionList = named(
  'VersionList',
  z.object({
    versions: z.array(
      z.object({
        version: z.string(),
        channel: z.enum(CHANNELS),
        releasedAt: text,
        requires: text,
        requiresPhp: text,
        tested: text,
        package: z.string(),
      }),
    ),
  }),
  'Every published release the key may download, newest version first, each with its licensed download URL: for a "Roll back" list.',
);
assertDescribes<typeof VersionList, Awaited<ReturnType<typeof listVersions>>>(true);

const storageRedirect = {
  location: { description: 'A storage URL valid 5 minutes that saves the file under its original name', required: true },
  'cache-control': { description: '`no-store`', required: true },
};

export const updateOperations = defineOperations({
  'GET /v1/wp/update-check': {
    summary: 'WordPress update check',
    description:
      'For `plugins_api` and the update transient. Offers the newest published release that is on a channel the caller may receive ' +
      "(a valid key's channels, capped by `channel`; `stable` only without one), whose `requiresPhp` and `requires` (the release's, else the " +
      "product's) the site's `php` and `wp` meet (a parameter not sent is not checked), and whose rollout includes the site: " +
      '`(first 4 bytes of SHA-256("<releaseId>:<domain or license_key>") as an unsigned big-endian integer) mod 100 < rolloutPercent`, ' +
      'with `domain` normalized (docs/api.md has test vectors). An invalid or inactive key (unknown, suspended, revoked, another ' +
      "product's, a bundle's outside the bundle; a bundle's key gets packages of every product it includes, DECISIONS §23) gets " +
      "the stable release's metadata without `package`. An expired key gets no `package` either, unless the product's " +
      '`updatesAfterExpiry` is `releasedBeforeExpiry`: then it is offered the newest such release published before its expiry, with ' +
      '`package`; either way a newer release it would get by renewing is named in `upgrade_notice`, with `renewal_url`. The installed ' +
      '`version` is not compared.\n\nThe answer is signed ' +
      "(RFC 9421, Ed25519) with the product's current key, as the license operations' are: `Signature`, `Signature-Input`, " +
      '`Content-Digest`, `Date`; send `Signature-Nonce` to have it bound to this request. An unknown slug (404) and bad input are not signed.',
    headerParameters: NONCE_HEADER_PARAMETER,
    queryExamples: { slug: 'acme-seo', license_key: EX.licenseKey, version: '1.9.0', domain: 'example.com', channel: 'beta', php: '8.2.12', wp: '6.7.1' },
    responses: {
      200: {
        description: 'Update information',
        body: UpdateInfo,
        headers: SIGNED_ANSWER_HEADERS,
        examples: {
          licensed: {
            name: 'Acme SEO',
            slug: 'acme-seo',
            version: '2.0.0',
            new_version: '2.0.0',
            url: 'https://acme.example.com/seo',
            package: `${EX.baseUrl}/v1/download/${EX.releaseId}?license_key=${EX.licenseKey}`,
            tested: '6.7',
            requires: '6.0',
            requires_php: '8.1',
            icons: { '1x': 'https://cdn.example.com/acme-seo/logo.png', '2x': 'https://cdn.example.com/acme-seo/logo.png' },
            banners: { low: null, high: null },
            sections: { description: '<p>Search engine tools for WordPress sites.</p>', changelog: '<h4>2.0.0</h4><p>Faster sitemaps.</p>' },
          },
          expired: {
            name: 'Acme SEO',
            slug: 'acme-seo',
            version: '2.0.0',
            new_version: '2.0.0',
            url: 'https://acme.example.com/seo',
            tested: '6.7',
            requires: '6.0',
            requires_php: '8.1',
            upgrade_notice: 'Renew your license to update to 2.0.0',
            renewal_url: `${EX.baseUrl}/public/v1/checkout/${EX.publicPlanId}?public_key=${EX.publicKey}`,
            icons: { '1x': null, '2x': null },
            banners: { low: null, high: null },
            sections: { description: '<p>Search engine tools for WordPress sites.</p>', changelog: '<h4>2.0.0</h4><p>Faster sitemaps.</p>' },
          },
        },
      },
    },
    errors: {
      400: ['slug is required', 'license_key is required', 'version is required', 'channel must be one of stable, beta, alpha', 'php must be a version such as 8.2.1'],
      404: ['Product not found'],
    },
    rateLimits: [RATE_LIMITS.edgeReads],
  },
  'GET /v1/wp/versions': {
    summary: 'Versions a license may install (rollback)',
    description:
      "Every published release on the license's channels, newest first, with its licensed download URL (`package`, as in the update " +
      'check); rollouts and requirements do not narrow it. An expired license of a product whose `updatesAfterExpiry` is ' +
      '`releasedBeforeExpiry` lists the releases published before its expiry. A bundle\'s key (DECISIONS §23) lists those of any ' +
      'product the bundle includes; another product is 403 `License does not cover this product`. Signed as the update check is, ' +
      'refusals included once the product is known.',
    headerParameters: NONCE_HEADER_PARAMETER,
    queryExamples: { slug: 'acme-seo', license_key: EX.licenseKey },
    responses: {
      200: {
        description: 'The versions',
        body: VersionList,
        headers: SIGNED_ANSWER_HEADERS,
        examples: {
          versions: {
            versions: [
              {
                version: '2.0.0',
                channel: 'stable',
                releasedAt: EX.created,
                requires: '6.0',
                requiresPhp: '8.1',
                tested: '6.7',
                package: `${EX.baseUrl}/v1/download/${EX.releaseId}?license_key=${EX.licenseKey}`,
              },
            ],
          },
        },
      },
    },
    errors: { 400: ['slug is required', 'license_key is required'], 403: [M.notFound, M.wrongProduct, M.notCovered, M.revoked, M.suspended, M.expired], 404: ['Product not found'] },
    rateLimits: [RATE_LIMITS.edgeReads],
  },
  'GET /v1/download/{releaseId}': {
    summary: 'Download a release with a license key',
    description:
      "Checks the key, then answers 302 to the file in storage and counts the download. The key's shape is checked before the release id's. " +
      "A valid key downloads any published release on its channels (another channel's is 403 `Release not available to this license`); an " +
      "expired key only releases published before its expiry, and only when the product's `updatesAfterExpiry` is `releasedBeforeExpiry`. " +
      "A bundle's key (DECISIONS §23) downloads releases of the products the bundle includes; another product's is 403 " +
      '`License does not cover this product`.',
    queryExamples: { license_key: EX.licenseKey },
    responses: { 302: { description: 'To the file', headers: storageRedirect } },
    errors: {
      400: ['license_key is required'],
      403: [M.notFound, M.wrongProduct, M.notCovered, M.revoked, M.suspended, M.expired, 'Release not available to this license'],
      404: ['Release not found'],
    },
    rateLimits: [RATE_LIMITS.downloads],
  },
});
