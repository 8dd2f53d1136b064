import { ConflictError, type Deps } from '../../platform/index.js';
import { type ConditionOperations, type EntityItem, type TransactionEntities, writeItem } from '../../platform/data/index.js';
import { productReleases } from './product-releases.js';
import { versionKey } from './versions.js';

type ClaimDeps = Pick<Deps, 'data' | 'clock'>;
type ReleaseItem = EntityItem<'release'>;
type ProductItem = EntityItem<'product'>;
type ClaimItem = EntityItem<'versionClaim'>;
export type ClaimedRelease = Pick<ReleaseItem, 'releaseId' | 'tenantId' | 'productId' | 'version' | 'status'>;

/** DECISIONS §22: the answer to a second published release of a version. */
export const versionTaken = (version: string) => new ConflictError(`Release ${version} already exists`);

/** The version a release holds among the product's published ones, as compared; none unless published. */
const heldKey = (release: ClaimedRelease | undefined) => (release?.status === 'published' ? versionKey(release.version) : undefined);

const claimOf = (release: ClaimedRelease, now: string): ClaimItem => ({
  productId: release.productId,
  versionKey: versionKey(release.version),
  tenantId: release.tenantId,
  releaseId: release.releaseId,
  version: release.version,
  claimedAt: now,
});

/**
 * What one release write does to the product's version claims: `claim` (created only if absent: refused means another
 * published release has the version) when the write publishes a version the release did not hold, and `free` when it
 * lets go of one (unpublished, deleted or renumbered). `free` is a delete on condition that the claim is this release's,
 * or, when another published release of that version is left (two published before claims existed), the claim handed
 * to it. Decided from fresh reads, which the write's conditions hold.
 */
export type ClaimWrites = {
  claim?: ClaimItem;
  free?: { key: string; heir?: ReleaseItem };
};

export async function claimWrites(deps: ClaimDeps, before: ClaimedRelease | undefined, after: ClaimedRelease | undefined): Promise<ClaimWrites> {
  const held = heldKey(before);
  const wanted = heldKey(after);
  if (held === wanted) return {};
  const writes: ClaimWrites = wanted === undefined ? {} : { claim: claimOf(after!, deps.clock.now().toISOString()) };
  if (held === undefined) return writes;
  const { data: claim } = await deps.data.entities.versionClaim.get({ productId: before!.productId, versionKey: held }).go({ consistent: true });
  if (claim?.releaseId !== before!.releaseId) return writes;
  const heir = (await productReleases(deps, before!.productId)).find(
    (release) => release.releaseId !== before!.releaseId && release.status === 'published' && versionKey(release.version) === held,
  );
  return { ...writes, free: { key: held, ...(heir && { heir }) } };
}

/** The transaction items of `ClaimWrites`, for the release `releaseId` that frees its claim. */
export function claimItems(tx: TransactionEntities, productId: string, releaseId: string, writes: ClaimWrites, now: string) {
  const { claim, free } = writes;
  const heldByThis = ({ releaseId: holder }: Record<'releaseId', unknown>, { eq }: ConditionOperations) => eq(holder, releaseId);
  return {
    claim: claim && tx.versionClaim.create(claim).commit(),
    free:
      free &&
      (free.heir
        ? tx.versionClaim
            .patch({ productId, versionKey: free.key })
            .set({ releaseId: free.heir.releaseId, version: free.heir.version, claimedAt: now })
            .where(heldByThis)
            .commit()
        : tx.versionClaim.delete({ productId, versionKey: free.key }).where(heldByThis).commit()),
  };
}

/**
 * Claims the versions of a product's releases published before version claims existed, once: each published release's
 * version is claimed if nobody holds it (two that share one: the newest created keeps it, and hands it on when it lets
 * go), then the product is marked. Idempotent, and run before the product's first publication under the rule, so those
 * releases count as any other. Releases published since hold their claims already: the index that lists the old ones
 * has long caught up with them.
 */
export async function claimPublishedVersions(deps: ClaimDeps, product: Pick<ProductItem, 'productId' | 'versionsClaimed'>): Promise<void> {
  if (product.versionsClaimed) return;
  const now = deps.clock.now().toISOString();
  const published = (await productReleases(deps, product.productId)).filter((release) => release.status === 'published');
  for (const release of published) {
    // Refused: the version is held already (by a release of the same version, or by this one on an earlier run).
    await writeItem(() => deps.data.entities.versionClaim.create(claimOf(release, now)).go());
  }
  await writeItem(() =>
    deps.data.entities.product
      .patch({ productId: product.productId })
      .set({ versionsClaimed: true })
      .go(),
  );
}
