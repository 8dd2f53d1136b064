import { type Config, type Deps } from '../../shared/platform/index.js';
import { type IdKind, lazyInput, type Route } from '../../shared/platform/http/index.js';
import { ELECTRON_CHANNEL_FILES, type ElectronChannelFile, type ProductCatalog, type ReleaseCatalog } from '../../shared/licensing/index.js';
import { NotFoundError } from '../../shared/platform/index.js';
import type { RateLimiter } from '../../shared/platform/rate-limits/index.js';
import type { DownloadLinks } from '../../shared/platform/storage/index.js';
import { feedSchemas } from './feed-schemas.js';

/** The handlers, loaded with the first feed request: a cold start of the edge parses none of them (issue 26). */
const handlers = () => import('./feed-handlers.js');
const RELEASE: IdKind = { prefix: 'rel', unknown: () => new NotFoundError('Release not found') };

/**
 * The desktop update feeds of DECISIONS §26, for a license key and optional machine: electron-updater's channel files,
 * Tauri 2's updater endpoint and a Sparkle appcast, and the licensed download of the files they name.
 */
export function feedRoutes(deps: Deps<Config<'links'>>, catalogs: { products: ProductCatalog; releases: ReleaseCatalog; links: DownloadLinks; limits: RateLimiter }): Route[] {
  const feed = { deps, ...catalogs };
  const input = (path: 'feedPath' | 'tauriPath') => lazyInput({ path: () => feedSchemas()[path], query: () => feedSchemas().query });
  return [
    ...(Object.keys(ELECTRON_CHANNEL_FILES) as ElectronChannelFile[]).map(
      (name): Route => ({
        method: 'GET',
        path: `/v1/feeds/{slug}/electron/${name}`,
        input: input('feedPath'),
        handler: async (event) => (await handlers()).electronFeed(feed, name, event),
      }),
    ),
    {
      method: 'GET',
      path: '/v1/feeds/{slug}/tauri/{target}/{arch}/{current_version}',
      input: input('tauriPath'),
      handler: async (event) => (await handlers()).tauriFeed(feed, event),
    },
    {
      method: 'GET',
      path: '/v1/feeds/{slug}/sparkle/appcast.xml',
      input: input('feedPath'),
      handler: async (event) => (await handlers()).sparkleFeed(feed, event),
    },
    {
      method: 'GET',
      path: '/v1/download/{releaseId}/{platform}/{fileName}',
      input: lazyInput({ pathIds: { releaseId: RELEASE }, path: () => feedSchemas().filePath, query: () => feedSchemas().query }),
      handler: async (event) => (await handlers()).platformFile(feed, event),
    },
  ];
}
