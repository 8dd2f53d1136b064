import { type Config, type Deps, ForbiddenError, NotFoundError } from '../../shared/platform/index.js';
import { addressNetwork, checkIdShape, clientAddress, clientNetwork, type HttpEvent, type HttpResult, type IdKind, noContent, ok, parseInput, query, redirect, requestBaseUrl } from '../../shared/platform/http/index.js';
import { couldBeLicenseKey, type ElectronChannelFile, LICENSE_MESSAGES, loadDesktopFeeds, type ProductCatalog, type ReleaseCatalog } from '../../shared/licensing/index.js';
import { RATE_LIMITS, type RateLimiter } from '../../shared/platform/rate-limits/index.js';
import type { DownloadLinks } from '../../shared/platform/storage/index.js';
import { feedSchemas } from './feed-schemas.js';

/** What the feeds' handlers use: the edge's product and release catalogs, download links and rate limits. */
export type FeedDeps = { deps: Deps<Config<'links'>>; products: ProductCatalog; releases: ReleaseCatalog; links: DownloadLinks; limits: RateLimiter };

const RELEASE: IdKind = { prefix: 'rel', unknown: () => new NotFoundError('Release not found') };
const NOT_CACHED = { 'cache-control': 'no-store' };
const textAnswer = (contentType: string, body: string): HttpResult => ({ statusCode: 200, headers: { 'content-type': contentType, ...NOT_CACHED }, body });

/**
 * A feed's request, checked: its path values and query; a key that cannot be one is refused as an unknown key, with no
 * read. Then the key's right to the product's feeds (licensing: `feedContext`).
 */
async function contextOf<P extends { slug: string }>({ deps, products, releases, limits }: FeedDeps, event: HttpEvent, readPath: (params: unknown) => P) {
  await limits.take(RATE_LIMITS.edgeReads, addressNetwork(clientAddress(event, deps.config)));
  const path = readPath(event.pathParameters ?? {});
  const input = parseInput(feedSchemas().query, query(event));
  if (!couldBeLicenseKey(input.license_key)) throw new ForbiddenError(LICENSE_MESSAGES.notFound);
  const feeds = await loadDesktopFeeds();
  const baseUrl = requestBaseUrl(event, deps.config.publicBaseUrl);
  const context = await feeds.feedContext(deps, { products, releases }, { slug: path.slug, licenseKey: input.license_key, machine: input.machine, baseUrl });
  return { feeds, context, path };
}

export async function electronFeed(feed: FeedDeps, name: ElectronChannelFile, event: HttpEvent): Promise<HttpResult> {
  const { feeds, context } = await contextOf(feed, event, (params) => parseInput(feedSchemas().feedPath, params));
  return textAnswer('text/yaml; charset=utf-8', feeds.electronChannelFile(context, name));
}

export async function tauriFeed(feed: FeedDeps, event: HttpEvent): Promise<HttpResult> {
  const { feeds, context, path } = await contextOf(feed, event, (params) => parseInput(feedSchemas().tauriPath, params));
  const update = feeds.tauriUpdate(context, path.target, path.arch, path.current_version);
  if (!update) return noContent({ headers: NOT_CACHED });
  const answer = ok(update);
  return { ...answer, headers: { ...answer.headers, ...NOT_CACHED } };
}

export async function sparkleFeed(feed: FeedDeps, event: HttpEvent): Promise<HttpResult> {
  const { feeds, context } = await contextOf(feed, event, (params) => parseInput(feedSchemas().feedPath, params));
  return textAnswer('application/xml; charset=utf-8', feeds.sparkleAppcast(context));
}

/** A feed's file: shapes before reads, in the order the download checks: the key (403 as an unknown key), the release, the file. */
export async function platformFile({ deps, products, links, limits }: FeedDeps, event: HttpEvent): Promise<HttpResult> {
  const input = parseInput(feedSchemas().query, query(event));
  await limits.take(RATE_LIMITS.downloads, clientNetwork(event, deps.config));
  if (!couldBeLicenseKey(input.license_key)) throw new ForbiddenError(LICENSE_MESSAGES.notFound);
  const releaseId = event.pathParameters!.releaseId!;
  checkIdShape(RELEASE, releaseId);
  const file = parseInput(feedSchemas().filePath, event.pathParameters ?? {});
  const feeds = await loadDesktopFeeds();
  return redirect(302, await feeds.downloadPlatformFile(deps, { products, links }, { releaseId, ...file, licenseKey: input.license_key, machine: input.machine }));
}
