import { ConflictError, type Deps } from '../../platform/index.js';
import { transact } from '../../platform/data/index.js';
import { randomBase32 } from '../../platform/index.js';
import { slugify } from '../products/slugs.js';

/** A Composer vendor name (Composer's own rule for the part before `/`), as a tenant may choose it. */
export const COMPOSER_VENDOR_PATTERN = /^[a-z0-9]+(?:[_.-][a-z0-9]+)*$/;
export const COMPOSER_VENDOR_RULE = 'must be lower-case letters and digits, joined by single -, _ or .';
export const MAX_COMPOSER_VENDOR_LENGTH = 64;
export const composerVendorTaken = (vendor: string) => `Composer vendor ${vendor} is taken`;

/** What the account settings answer (`GET /api/account/settings`). */
export type AccountSettings = { composerVendor: string };

type VendorDeps = Pick<Deps, 'data' | 'clock'>;

/** Candidates for a default vendor: the name, two numbered ones, then random suffixes (many accounts share a name). */
function* vendorCandidates(base: string): Generator<string> {
  yield base;
  for (let n = 2; n <= 3; n++) yield `${base}-${n}`;
  for (let n = 0; n < 5; n++) yield `${base}-${randomBase32(5)}`;
}

/** The tenant's Composer vendor name, when it has one: one GetItem, for the edge. */
export async function composerVendorOf(deps: Pick<Deps, 'data'>, tenantId: string, consistent = false): Promise<string | undefined> {
  const { data } = await deps.data.entities.accountSettings.get({ tenantId }).go({ consistent });
  return data?.composerVendor;
}

/**
 * The tenant's settings, its Composer vendor claimed first when it has none (DECISIONS §24): the account's name as a
 * slug, with a suffix when another account holds it. The name and the settings are created together, each only if
 * absent, so two accounts never share a vendor and a tenant never gets two.
 */
export async function ensureAccountSettings(deps: VendorDeps, tenantId: string): Promise<AccountSettings> {
  const current = await composerVendorOf(deps, tenantId, true);
  if (current) return { composerVendor: current };
  const { data: owner } = await deps.data.entities.user.get({ userId: tenantId }).go();
  const named = slugify(owner?.name ?? '').slice(0, 48).replace(/-+$/, '');
  // `product`: slugify's answer for a name with no letter or digit.
  const base = named === 'product' && !/product/i.test(owner?.name ?? '') ? 'vendor' : named;
  const now = deps.clock.now().toISOString();
  for (const composerVendor of vendorCandidates(base)) {
    const outcome = await transact(deps.data, (tx) => ({
      vendor: tx.composerVendor.create({ composerVendor, tenantId }).commit(),
      settings: tx.accountSettings.create({ tenantId, composerVendor, updatedAt: now }).commit(),
    }));
    if (outcome.committed) return { composerVendor };
    if (outcome.refused('settings')) {
      // Claimed meanwhile by another request of the tenant: theirs stands.
      return { composerVendor: (await composerVendorOf(deps, tenantId, true))! };
    }
    if (!outcome.refused('vendor')) throw outcome.unexpected();
  }
  throw new ConflictError(composerVendorTaken(base));
}

/**
 * Renames the tenant's Composer vendor: the new name is claimed, the old one released and the settings moved in one
 * transaction, on the condition that the settings still name the old one. A name another account holds is 409.
 */
export async function setComposerVendor(deps: VendorDeps, tenantId: string, composerVendor: string): Promise<AccountSettings> {
  const old = await composerVendorOf(deps, tenantId, true);
  if (old === composerVendor) return { composerVendor };
  const updatedAt = deps.clock.now().toISOString();
  const outcome = await transact(deps.data, (tx) => ({
    vendor: tx.composerVendor.create({ composerVendor, tenantId }).commit(),
    // A tenant without settings yet takes the name it chose, never the default first.
    released:
      old === undefined
        ? undefined
        : tx.composerVendor
            .delete({ composerVendor: old })
            .where(({ tenantId: holder }, { eq }) => eq(holder, tenantId))
            .commit(),
    settings:
      old === undefined
        ? tx.accountSettings.create({ tenantId, composerVendor, updatedAt }).commit()
        : tx.accountSettings
            .patch({ tenantId })
            .set({ composerVendor, updatedAt })
            .where(({ composerVendor: named }, { eq }) => eq(named, old))
            .commit(),
  }));
  if (outcome.committed) return { composerVendor };
  if (outcome.refused('vendor')) throw new ConflictError(composerVendorTaken(composerVendor));
  if (outcome.refused('settings') || outcome.refused('released')) throw new ConflictError('Account settings were changed concurrently; retry');
  throw outcome.unexpected();
}

/** How a customer installs a product with Composer: its package name and the repository's address. */
export type ComposerInstall = { packageName: string; repositoryUrl: string };

/**
 * The Composer install of a Composer-enabled product (`composerEnabled`), for its license e-mail; undefined for any
 * other product, or an account without a vendor yet (one GetItem of the tenant's settings).
 */
export async function composerInstallOf(
  deps: Pick<Deps, 'data'>,
  product: { tenantId: string; slug: string; composerEnabled?: boolean },
  baseUrl: string,
): Promise<ComposerInstall | undefined> {
  if (!product.composerEnabled) return undefined;
  const vendor = await composerVendorOf(deps, product.tenantId);
  return vendor ? { packageName: `${vendor}/${product.slug}`, repositoryUrl: `${baseUrl}/composer` } : undefined;
}
