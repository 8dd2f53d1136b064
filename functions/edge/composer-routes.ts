import { type Config, type Deps, NotFoundError } from '../../shared/platform/index.js';
import { addressNetwork, checkIdShape, clientAddress, clientNetwork, header, type HttpEvent, type IdKind, ok, redirect, requestBaseUrl, type Route } from '../../shared/platform/http/index.js';
import { type ComposerCaller, type ComposerRepository, type ComposerSources, loadComposerRepository, normalizeDomain, PACKAGE_NOT_FOUND } from '../../shared/licensing/index.js';
import { COMPOSER_VENDOR_PATTERN, MAX_COMPOSER_VENDOR_LENGTH, SLUG_PATTERN } from '../../shared/catalog/index.js';
import { RATE_LIMITS, type RateLimiter } from '../../shared/platform/rate-limits/index.js';

const notFound = () => new NotFoundError(PACKAGE_NOT_FOUND);
const RELEASE: IdKind = { prefix: 'rel', unknown: notFound };

/** The license key (user name) and site (password, when it reads as a domain) of the request's Basic credentials. */
function callerOf(event: HttpEvent): ComposerCaller {
  const match = /^Basic\s+([A-Za-z0-9+/=]{1,1024})\s*$/i.exec(header(event, 'authorization') ?? '');
  if (!match) return { licenseKey: undefined };
  const credentials = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = credentials.indexOf(':');
  const licenseKey = (colon < 0 ? credentials : credentials.slice(0, colon)).trim();
  if (!licenseKey) return { licenseKey: undefined };
  return { licenseKey, site: colon < 0 ? undefined : siteOf(credentials.slice(colon + 1)) };
}

function siteOf(password: string): string | undefined {
  try {
    return password ? normalizeDomain(password.slice(0, 255)) : undefined;
  } catch {
    return undefined;
  }
}

/** A path's vendor and package name as Composer spells them; any other spelling names nothing in the repository. */
function packagePath(vendor: string | undefined, slug: string | undefined): { vendor: string; slug: string } {
  if (!vendor || vendor.length > MAX_COMPOSER_VENDOR_LENGTH || !COMPOSER_VENDOR_PATTERN.test(vendor)) throw notFound();
  if (!slug || slug.length > 64 || !SLUG_PATTERN.test(slug)) throw notFound();
  return { vendor, slug };
}

/**
 * The licensed Composer repository (DECISIONS §24): `packages.json`, each package's metadata and its versions' ZIPs,
 * under HTTP Basic auth with a license key. Its module is loaded by the container's first Composer request.
 */
export function composerRoutes(deps: Deps<Config<'links'>>, sources: ComposerSources & { limits: RateLimiter }): Route[] {
  let repository: Promise<ComposerRepository> | undefined;
  const loaded = () => (repository ??= loadComposerRepository().then(({ createComposerRepository }) => createComposerRepository(deps, sources)));
  const readLimit = (event: HttpEvent) => sources.limits.take(RATE_LIMITS.edgeReads, addressNetwork(clientAddress(event, deps.config)));
  const baseUrlOf = (event: HttpEvent) => requestBaseUrl(event, deps.config.publicBaseUrl);

  return [
    {
      method: 'GET',
      path: '/composer/packages.json',
      handler: async (event) => {
        await readLimit(event);
        return ok(await (await loaded()).root(callerOf(event), baseUrlOf(event)));
      },
    },
    {
      method: 'GET',
      path: '/composer/p2/{vendor}/{file}',
      handler: async (event) => {
        const { vendor, file } = event.pathParameters ?? {};
        const name = /^(.+?)(~dev)?\.json$/.exec(file ?? '');
        const path = packagePath(vendor, name?.[1]);
        await readLimit(event);
        const answer = await (await loaded()).metadata(callerOf(event), { ...path, dev: Boolean(name?.[2]), baseUrl: baseUrlOf(event) });
        return ok(answer);
      },
    },
    {
      method: 'GET',
      path: '/composer/dist/{vendor}/{package}/{file}',
      handler: async (event) => {
        const { vendor, package: slug, file } = event.pathParameters ?? {};
        const path = packagePath(vendor, slug);
        const releaseId = /^(.+)\.zip$/.exec(file ?? '')?.[1] ?? '';
        checkIdShape(RELEASE, releaseId);
        await sources.limits.take(RATE_LIMITS.downloads, clientNetwork(event, deps.config));
        return redirect(302, await (await loaded()).dist(callerOf(event), { ...path, releaseId }));
      },
    },
  ];
}
