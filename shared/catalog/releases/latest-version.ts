import { compareVersions, highestVersion } from './versions.js';

export type VersionedRelease = { releaseId: string; version: string; status: string };

const isPublished = (release: VersionedRelease | undefined): release is VersionedRelease => release?.status === 'published';

/**
 * How a product's `latestVersion` moves when one of its releases changes from `before` to `after`
 * (`before` absent: created; `after` absent: deleted). Only a change that takes away the current
 * latest needs the other releases (`recompute`); every other change is decided from these two alone,
 * so it never depends on an index that may lag behind recent writes.
 */
export function latestVersionChange(
  current: string | undefined,
  before: VersionedRelease | undefined,
  after: VersionedRelease | undefined,
): { kind: 'keep' } | { kind: 'set'; version: string } | { kind: 'recompute' } {
  if (isPublished(after) && (current === undefined || compareVersions(after.version, current) > 0)) {
    return { kind: 'set', version: after.version };
  }
  const heldLatest = isPublished(before) && current !== undefined && compareVersions(before.version, current) === 0;
  const stillHolds = isPublished(after) && current !== undefined && compareVersions(after.version, current) === 0;
  return heldLatest && !stillHolds ? { kind: 'recompute' } : { kind: 'keep' };
}

/** The highest version among the published ones, after replacing (or removing) the changed release. */
export function recomputeLatest(
  others: VersionedRelease[],
  changedId: string,
  after: VersionedRelease | undefined,
): string | undefined {
  const candidates = [...others.filter((r) => r.releaseId !== changedId), ...(after ? [after] : [])];
  return highestVersion(candidates.filter(isPublished).map((r) => r.version));
}
