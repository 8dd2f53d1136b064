import * as z from 'zod/mini';
import { type Config, type Deps, ForbiddenError, lazily, NotFoundError } from '../../shared/platform/index.js';
import { addressNetwork, checkIdShape, clientAddress, clientNetwork, type HttpEvent, type HttpResult, type IdKind, lazyInput, noContent, ok, parseInput, query, redirect, requestBaseUrl, requiredText, type Route } from '../../shared/platform/http/index.js';
import { couldBeLicenseKey, ELECTRON_CHANNEL_FILES, type ElectronChannelFile, LICENSE_MESSAGES, loadDesktopFeeds, MAX_MACHINE_LENGTH, type ReleaseCatalog, TAURI_ARCHES, TAURI_TARGETS } from '../../shared/licensing/index.js';
import { RATE_LIMITS, type RateLimiter } from '../../shared/platform/rate-limits/index.js';
import type { DownloadLinks } from '../../shared/platform/storage/index.js';
import { PLATFORMS } from '../../shared/catalog/index.js';

const RELEASE: IdKind = { prefix: 'rel', unknown: () => new NotFoundError('Release not found') };

/** The routes' schemas, built with the first request that reads one (shared/platform/http/route.ts: `lazyInput`). */
const schemas = lazily(() => {
  const machine = z.optional(
    z.string({ error: 'machine must be a string' }).check(z.regex(new RegExp(`^[\\x20-\\x7e]{1,${MAX_MACHINE_LENGTH}}$`), `machine must be 1–${MAX_MACHINE_LENGTH} printable characters`)),
  );
  const feedQuery = z.object({ license_key: requiredText('license_key', 256), machine });
  const slug = z.string().check(z.regex(/^[a-z0-9-]{1,128}$/, 'slug must be a product slug'));
  const feedPath = z.object({ slug });
  const tauriPath = z.object({
    slug,
    target: z.enum(TAURI_TARGETS, { error: `target must be one of ${TAURI_TARGETS.join(', ')}` }),
    arch: z.enum(TAURI_ARCHES, { error: `arch must be one of ${TAURI_ARCHES.join(', ')}` }),
    current_version: z.string().check(z.regex(/^v?\d+(\.\d+)*([-+.~_]?[0-9A-Za-z]+)*$/, 'current_version must be a version such as 1.2.3'), z.maxLength(64, 'current_version must be at most 64 characters')),
  });
  const filePath = z.object({
    platform: z.enum(PLATFORMS, { error: `platform must be one of ${PLATFORMS.join(', ')}` }),
    fileName: z.string().check(z.regex(/^[A-Za-z0-9._-]{1,120}$/, 'fileName must be a file name')),
  });
  return { feedQuery, feedPath, tauriPath, filePath };
});

const NOT_CACHED = { 'cache-control': 'no-store' };
const textAnswer = (contentType: string, body: string): HttpResult => ({ statusCode: 200, headers: { 'content-type': contentType, ...NOT_CACHED }, body });

/** The feed's path values and query, checked; a key that cannot be one is refused as an unknown key, with no read. */
function feedInput<P extends z.core.$ZodType>(event: HttpEvent, pathSchema: P, config: { publicBaseUrl?: string }) {
  const path = parseInput(pathSchema, event.pathParameters ?? {}) as z.infer<P>;
  const input = parseInput(schemas().feedQuery, query(event));
  if (!couldBeLicenseKey(input.license_key)) throw new ForbiddenError(LICENSE_MESSAGES.notFound);
  return { path, request: { licenseKey: input.license_key, machine: input.machine, baseUrl: requestBaseUrl(event, config.publicBaseUrl) } };
}

/**
 * The desktop update feeds of DECISIONS §26, for a license key and optional machine: electron-updater's channel files,
 * Tauri 2's updater endpoint and a Sparkle appcast, and the licensed download of the files they name. Their code is
 * loaded by the first request for one (`loadDesktopFeeds`).
 */
export function feedRoutes(
  deps: Deps<Config<'links'>>,
  catalogs: { releases: ReleaseCatalog; links: DownloadLinks; limits: RateLimiter },
): Route[] {
  const feedRoute = (path: string, pathSchema: () => z.core.$ZodType, answer: (feeds: Awaited<ReturnType<typeof loadDesktopFeeds>>, event: HttpEvent) => Promise<HttpResult>): Route => ({
    method: 'GET',
    path,
    input: lazyInput({ path: pathSchema, query: () => schemas().feedQuery }),
    handler: async (event) => {
      await catalogs.limits.take(RATE_LIMITS.edgeReads, addressNetwork(clientAddress(event, deps.config)));
      return answer(await loadDesktopFeeds(), event);
    },
  });
  const electron = (name: ElectronChannelFile) =>
    feedRoute(`/v1/feeds/{slug}/electron/${name}`, () => schemas().feedPath, async (feeds, event) => {
      const { path, request } = feedInput(event, schemas().feedPath, deps.config);
      const context = await feeds.feedContext(deps, catalogs.releases, { slug: path.slug, ...request });
      return textAnswer('text/yaml; charset=utf-8', feeds.electronChannelFile(context, name));
    });
  return [
    ...(Object.keys(ELECTRON_CHANNEL_FILES) as ElectronChannelFile[]).map(electron),
    feedRoute('/v1/feeds/{slug}/tauri/{target}/{arch}/{current_version}', () => schemas().tauriPath, async (feeds, event) => {
      const { path, request } = feedInput(event, schemas().tauriPath, deps.config);
      const context = await feeds.feedContext(deps, catalogs.releases, { slug: path.slug, ...request });
      const update = feeds.tauriUpdate(context, path.target, path.arch, path.current_version);
      return update ? { ...ok(update), headers: { ...ok(update).headers, ...NOT_CACHED } } : noContent({ headers: NOT_CACHED });
    }),
    feedRoute('/v1/feeds/{slug}/sparkle/appcast.xml', () => schemas().feedPath, async (feeds, event) => {
      const { path, request } = feedInput(event, schemas().feedPath, deps.config);
      const context = await feeds.feedContext(deps, catalogs.releases, { slug: path.slug, ...request });
      return textAnswer('application/xml; charset=utf-8', feeds.sparkleAppcast(context));
    }),
    {
      method: 'GET',
      path: '/v1/download/{releaseId}/{platform}/{fileName}',
      input: lazyInput({ pathIds: { releaseId: RELEASE }, path: () => schemas().filePath, query: () => schemas().feedQuery }),
      handler: async (event) => {
        const input = parseInput(schemas().feedQuery, query(event));
        await catalogs.limits.take(RATE_LIMITS.downloads, clientNetwork(event, deps.config));
        // Shapes before reads, in the order the download checks: the key (403 as an unknown key), then the release and file.
        if (!couldBeLicenseKey(input.license_key)) throw new ForbiddenError(LICENSE_MESSAGES.notFound);
        const releaseId = event.pathParameters!.releaseId!;
        checkIdShape(RELEASE, releaseId);
        const file = parseInput(schemas().filePath, event.pathParameters ?? {});
        const feeds = await loadDesktopFeeds();
        const location = await feeds.downloadPlatformFile(deps, catalogs.links, { releaseId, ...file, licenseKey: input.license_key, machine: input.machine });
        return redirect(302, location);
      },
    },
  ];
}
