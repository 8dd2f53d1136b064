import type { EntityItem } from '../../platform/data/index.js';
import type { Deps } from '../../platform/index.js';
import { compareVersions } from './versions.js';

type ReleaseItem = EntityItem<'release'>;

/** Every release of a product, newest created first (the index's order). */
export async function productReleases(deps: Pick<Deps, 'data'>, productId: string): Promise<ReleaseItem[]> {
  const { data } = await deps.data.entities.release.query.byProduct({ productId }).go({ pages: 'all', order: 'desc' });
  return data;
}

/** A product's published releases, newest version first. */
export async function publishedReleaseItems(deps: Pick<Deps, 'data'>, productId: string): Promise<ReleaseItem[]> {
  const published = (await productReleases(deps, productId)).filter((r) => r.status === 'published');
  // The query gives newest-created first and the sort is stable, so ties keep that order.
  return published.sort((a, b) => compareVersions(b.version, a.version));
}
