import { type Channel, DEFAULT_CHANNEL } from '../../catalog/index.js';
import { BadRequestError, type Deps } from '../../platform/index.js';
import { machineLease } from '../leases/leases.js';
import type { ActivityRecorder } from './activity.js';
import { LICENSE_MESSAGES } from './messages.js';
import type { SeatHolder } from './seat-holder.js';
import { assertUsable, inGrace } from './license-state.js';
import { resolveLicense, type LicenseClaim } from './license-lookup.js';
import type { ProductCatalog } from './product-catalog.js';

export type LicenseContext = { catalog: ProductCatalog; activity: ActivityRecorder };

export type Validation = {
  /** A floating license validated for a machine: the live lease it holds. */
  lease?: { leaseId: string; expiresAt: string };
  license: { key: string; status: string; seats: number; activatedCount: number; stagingCount: number; expiresAt: string | null; channel: Channel; inGrace: boolean; features: string[] };
  product: { id: string; name: string; slug: string };
  /** A bundle's license (DECISIONS §23): every product the key is for. */
  products?: { id: string; slug: string; name: string }[];
};

/**
 * Validates a key: one strongly consistent read of the license item, which holds the whole answer
 * (the product comes from the container's cache). A `domain` or `machine` is only recorded as its active hold's last
 * check, except on a floating license: there a `machine` is valid only while it holds a live lease, which is one more
 * key lookup (its lease hold, shared/licensing/leases/leases.ts). A domain license's validate reads nothing more.
 */
export async function validateLicense(
  deps: Pick<Deps, 'data' | 'clock'>,
  context: LicenseContext,
  input: LicenseClaim & { holder?: SeatHolder; ipAddress: string; version?: string },
): Promise<Validation> {
  const { license, product, bundle } = await resolveLicense(deps, context.catalog, input);
  const now = deps.clock.now();
  assertUsable(license, now);
  const { holder } = input;
  let lease: Validation['lease'];
  if (license.floating && holder?.kind === 'machine') {
    lease = await machineLease(deps, license.licenseId, holder.machine);
    if (!lease) throw new BadRequestError(LICENSE_MESSAGES.noLease);
  } else if (holder !== undefined) {
    await context.activity.domainSeen(license, holder.holdKey, input.ipAddress, input.version);
  }
  return {
    ...(lease ? { lease } : {}),
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
      // From the item already read: features cost validate no request (DECISIONS §23).
      features: license.features ?? [],
    },
    product: { id: product.productId, name: product.name, slug: product.slug },
    ...(bundle && { products: bundle.products.map((included) => ({ id: included.productId, slug: included.slug, name: included.name })) }),
  };
}
