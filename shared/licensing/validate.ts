import { DEFAULT_CHANNEL, type Channel } from '../releases/channels.js';
import type { Deps } from '../runtime.js';
import type { ActivityRecorder } from './activity.js';
import { assertUsable, inGrace } from './license-state.js';
import { resolveLicense, type LicenseClaim } from './license-lookup.js';
import type { ProductCatalog } from './product-catalog.js';

export type LicenseContext = { catalog: ProductCatalog; activity: ActivityRecorder };

export type Validation = {
  license: { key: string; status: string; seats: number; activatedCount: number; stagingCount: number; expiresAt: string | null; channel: Channel; inGrace: boolean };
  product: { id: string; name: string; slug: string };
};

/**
 * Validates a key: one strongly consistent read of the license item, which holds the whole answer
 * (the product comes from the container's cache). A `domain` is only recorded as its active domain's last check.
 */
export async function validateLicense(
  deps: Pick<Deps, 'data' | 'clock'>,
  context: LicenseContext,
  input: LicenseClaim & { domain?: string; ipAddress: string; version?: string },
): Promise<Validation> {
  const { license, product } = await resolveLicense(deps, context.catalog, input);
  const now = deps.clock.now();
  assertUsable(license, now);
  if (input.domain !== undefined) await context.activity.domainSeen(license, input.domain, input.ipAddress, input.version);
  return {
    license: {
      key: license.licenseKey,
      status: license.status,
      seats: license.seats,
      activatedCount: license.activatedCount,
      stagingCount: license.stagingCount ?? 0,
      expiresAt: license.expiresAt ?? null,
      channel: license.channel ?? DEFAULT_CHANNEL,
      // Always present: `true` while a failed payment's grace keeps the license valid.
      inGrace: inGrace(license, now),
    },
    product: { id: product.productId, name: product.name, slug: product.slug },
  };
}
