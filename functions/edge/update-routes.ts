import { z } from 'zod';
import { query, requestBaseUrl } from '../../shared/http/request.js';
import { ok, redirect } from '../../shared/http/responses.js';
import type { ProductCatalog } from '../../shared/licensing/product-catalog.js';
import type { Deps } from '../../shared/runtime.js';
import { downloadRelease } from '../../shared/updates/download.js';
import type { ReleaseCatalog } from '../../shared/updates/release-catalog.js';
import { checkForUpdate } from '../../shared/updates/update-check.js';
import { parseEdgeInput, requiredText } from './input.js';
import type { Route } from './license-routes.js';

const updateCheckQuery = z.object({
  slug: requiredText('slug', 128),
  license_key: requiredText('license_key', 256),
  version: requiredText('version', 64),
});
const downloadQuery = z.object({ license_key: requiredText('license_key', 256) });

/** The WordPress update check and the licensed download. */
export function updateRoutes(deps: Deps, catalogs: { products: ProductCatalog; releases: ReleaseCatalog }): Route[] {
  return [
    {
      method: 'GET',
      path: '/v1/wp/update-check',
      handler: async (event) => {
        const input = parseEdgeInput(updateCheckQuery, query(event));
        return ok(
          await checkForUpdate(deps, catalogs.releases, {
            slug: input.slug,
            licenseKey: input.license_key,
            baseUrl: requestBaseUrl(event, deps.config.publicBaseUrl),
          }),
        );
      },
    },
    {
      method: 'GET',
      path: '/v1/download/{releaseId}',
      handler: async (event) => {
        const input = parseEdgeInput(downloadQuery, query(event));
        const releaseId = decodeURIComponent(event.pathParameters?.releaseId ?? '');
        return redirect(302, await downloadRelease(deps, catalogs.products, { releaseId, licenseKey: input.license_key }));
      },
    },
  ];
}
