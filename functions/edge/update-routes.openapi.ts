import * as z from 'zod/mini';
import { LICENSE_MESSAGES as M } from '../../shared/licensing/messages.js';
import { RATE_LIMITS } from '../../shared/rate-limits/limits.js';
import { EX } from '../../shared/openapi/examples.js';
import { assertDescribes, defineOperations, named } from '../../shared/openapi/operation.js';
import { NONCE_HEADER_PARAMETER, SIGNED_ANSWER_HEADERS } from '../../shared/openapi/signatures.js';
import type { updateInfo } from '../../shared/updates/wordpress.js';

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
    icons: z.object({ '1x': text, '2x': text }),
    banners: z.object({ low: text, high: text }),
    sections: z.object({ description: z.string(), changelog: z.string() }),
  }),
  'WordPress plugin update information. `version` and `new_version` are the latest published release; `package` (the licensed download) ' +
    'is there only for an active, unexpired key of this product.',
);
assertDescribes<typeof UpdateInfo, ReturnType<typeof updateInfo>>(true);

const storageRedirect = {
  location: { description: 'A storage URL valid 5 minutes that saves the file under its original name', required: true },
  'cache-control': { description: '`no-store`', required: true },
};

export const updateOperations = defineOperations({
  'GET /v1/wp/update-check': {
    summary: 'WordPress update check',
    description:
      'For `plugins_api` and the update transient. An invalid or inactive key (unknown, expired, suspended, revoked, another product\'s) ' +
      'gets the same metadata without `package`. The installed `version` changes nothing in the answer.\n\nThe answer is signed ' +
      "(RFC 9421, Ed25519) with the product's current key, as the license operations' are: `Signature`, `Signature-Input`, " +
      '`Content-Digest`, `Date`; send `Signature-Nonce` to have it bound to this request. An unknown slug (404) and bad input are not signed.',
    headerParameters: NONCE_HEADER_PARAMETER,
    queryExamples: { slug: 'acme-seo', license_key: EX.licenseKey, version: '1.9.0' },
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
        },
      },
    },
    errors: { 400: ['slug is required', 'license_key is required', 'version is required'], 404: ['Product not found'] },
    rateLimits: [RATE_LIMITS.edgeReads],
  },
  'GET /v1/download/{releaseId}': {
    summary: 'Download a release with a license key',
    description: "Checks the key, then answers 302 to the file in storage and counts the download. The key's shape is checked before the release id's.",
    queryExamples: { license_key: EX.licenseKey },
    responses: { 302: { description: 'To the file', headers: storageRedirect } },
    errors: { 400: ['license_key is required'], 403: [M.notFound, M.wrongProduct, M.revoked, M.suspended, M.expired], 404: ['Release not found'] },
    rateLimits: [RATE_LIMITS.downloads],
  },
});
