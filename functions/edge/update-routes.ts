import * as z from 'zod/mini';
import { type Config, type Deps, ForbiddenError, lazily, NotFoundError } from '../../shared/platform/index.js';
import { addressNetwork, checkIdShape, clientAddress, clientNetwork, type IdKind, lazyInput, ok, optionalText, parseInput, query, redirect, requestBaseUrl, requiredText, type Route } from '../../shared/platform/http/index.js';
import { type ActivityRecorder, checkForUpdate, couldBeLicenseKey, downloadRelease, LICENSE_MESSAGES, listVersions, MAX_DOMAIN_INPUT_LENGTH, normalizeDomain, type ProductCatalog, type ReleaseCatalog, type ResponseSigner, signedAnswers } from '../../shared/licensing/index.js';
import { RATE_LIMITS, type RateLimiter } from '../../shared/platform/rate-limits/index.js';
import type { DownloadLinks } from '../../shared/platform/storage/index.js';
import { CHANNELS } from '../../shared/catalog/index.js';

/** A PHP or WordPress version as sites report them ("8.2.12", "6.5-RC1"). */
const siteVersion = (field: string) =>
  z.pipe(
    optionalText(field, 32),
    z.optional(z.string().check(z.regex(/^\d+(\.\d+)*([-+.~_]?[0-9A-Za-z]+)*$/, `${field} must be a version such as 8.2.1`))),
  );

/** The routes' schemas, built with the first request that reads one (shared/platform/http/route.ts: `lazyInput`). */
const schemas = lazily(() => {
  const productQuery = { slug: requiredText('slug', 128), license_key: requiredText('license_key', 256) };
  const updateCheckQuery = z.object({
    ...productQuery,
    version: requiredText('version', 64),
    /** The site asking (WordPress's home URL): its check is recorded, its version counted in analytics, its rollout bucket drawn. */
    domain: optionalText('domain', MAX_DOMAIN_INPUT_LENGTH),
    /** The site's own channel choice, capped by its license's. */
    channel: z.optional(z.enum(CHANNELS, { error: `channel must be one of ${CHANNELS.join(', ')}` })),
    php: siteVersion('php'),
    wp: siteVersion('wp'),
  });
  const versionsQuery = z.object(productQuery);
  const downloadQuery = z.object({ license_key: requiredText('license_key', 256) });
  return { updateCheckQuery, versionsQuery, downloadQuery };
});

/** A site the check names, when its domain reads as one; a malformed one never costs a site its update. */
function siteOf(domain: string | undefined): string | undefined {
  if (domain === undefined) return undefined;
  try {
    return normalizeDomain(domain);
  } catch {
    return undefined;
  }
}
const RELEASE: IdKind = { prefix: 'rel', unknown: () => new NotFoundError('Release not found') };

/** The WordPress update check, the versions a license may roll back to, and the licensed download. */
export function updateRoutes(
  deps: Deps<Config<'links'>>,
  catalogs: { products: ProductCatalog; releases: ReleaseCatalog; links: DownloadLinks; activity: ActivityRecorder; signer: ResponseSigner; limits: RateLimiter },
): Route[] {
  return [
    {
      method: 'GET',
      path: '/v1/wp/update-check',
      input: lazyInput({ query: () => schemas().updateCheckQuery }),
      // Signed with the product's key (an unknown slug is not: no product, no key).
      handler: signedAnswers(catalogs.signer, deps.clock, async (event, scope) => {
        const input = parseInput(schemas().updateCheckQuery, query(event));
        const address = clientAddress(event, deps.config);
        // The edge's reads share one bucket per address (IPv6: its /64) in the container: a check under the limit costs no I/O.
        await catalogs.limits.take(RATE_LIMITS.edgeReads, addressNetwork(address));
        const domain = siteOf(input.domain);
        const { info, product } = await checkForUpdate(deps, catalogs, {
          slug: input.slug,
          licenseKey: input.license_key,
          baseUrl: requestBaseUrl(event, deps.config.publicBaseUrl),
          channel: input.channel,
          php: input.php,
          wp: input.wp,
          site: domain === undefined ? undefined : { domain, ipAddress: address, version: input.version },
        });
        scope.product = product;
        return ok(info);
      }),
    },
    {
      method: 'GET',
      path: '/v1/wp/versions',
      input: lazyInput({ query: () => schemas().versionsQuery }),
      handler: signedAnswers(catalogs.signer, deps.clock, async (event, scope) => {
        const input = parseInput(schemas().versionsQuery, query(event));
        await catalogs.limits.take(RATE_LIMITS.edgeReads, addressNetwork(clientAddress(event, deps.config)));
        const baseUrl = requestBaseUrl(event, deps.config.publicBaseUrl);
        const answer = await listVersions(deps, catalogs, { slug: input.slug, licenseKey: input.license_key, baseUrl }, (product) => {
          scope.product = product;
        });
        return ok(answer);
      }),
    },
    {
      method: 'GET',
      path: '/v1/download/{releaseId}',
      input: lazyInput({ pathIds: { releaseId: RELEASE }, query: () => schemas().downloadQuery }),
      handler: async (event) => {
        const input = parseInput(schemas().downloadQuery, query(event));
        await catalogs.limits.take(RATE_LIMITS.downloads, clientNetwork(event, deps.config));
        // Shapes before reads, in the order the download checks: the key (403 as an unknown key), then the release.
        if (!couldBeLicenseKey(input.license_key)) throw new ForbiddenError(LICENSE_MESSAGES.notFound);
        const releaseId = event.pathParameters!.releaseId!;
        checkIdShape(RELEASE, releaseId);
        return redirect(302, await downloadRelease(deps, catalogs, { releaseId, licenseKey: input.license_key }));
      },
    },
  ];
}
