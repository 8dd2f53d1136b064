import { BadRequestError, ConflictError, type Deps, newId, NotFoundError, withoutNulls } from '../../platform/index.js';
import { type ConditionOperations, type EntityItem, type RELEASE_STATUSES, transact, type TransactionEntities } from '../../platform/data/index.js';
import { loadLiveProduct } from '../products/products.js';
import { inspectReleaseFile, releaseFileSha1, type StorageDeps } from '../../platform/storage/index.js';
import { isProductFilePath, isZipArchive, sanitizeFileName, ZIP_SIGNATURE_LENGTH } from './file-rules.js';
import { outboxEvent } from '../../messaging/index.js';
import { DEFAULT_CHANNEL, DEFAULT_ROLLOUT_PERCENT, type Channel } from './channels.js';
import { latestVersionChange, recomputeLatest } from './latest-version.js';
import { toPlatformFile } from './platform-files.js';
import { productReleases } from './product-releases.js';
import { README_FIELDS, readmeItem, readReleaseZipFile } from './readme/release-readme.js';
import { releaseEvent } from './release-events.js';
import { claimItems, claimPublishedVersions, claimWrites, versionTaken } from './version-claims.js';
import { VERSION_PATTERN, VERSION_RULE } from './versions.js';

type ReleaseDeps = Pick<Deps, 'data' | 'clock'> & StorageDeps;
type ReleaseStatus = (typeof RELEASE_STATUSES)[number];

/** Optional text fields: `null` in an update clears them. */
const OPTIONAL_TEXT = ['releaseNotes', 'tested', 'requires', 'requiresPhp'] as const;

export type ReleaseInput = {
  /** Left out: the version the ZIP names (DECISIONS §22). */
  version?: string;
  filePath: string;
  fileName?: string;
  fileSize?: number;
  status?: ReleaseStatus;
  channel?: Channel;
  rolloutPercent?: number;
} & { [K in (typeof OPTIONAL_TEXT)[number]]?: string | null };
export type ReleaseChanges = Partial<ReleaseInput>;

type ReleaseItem = EntityItem<'release'>;

export function toRelease(item: ReleaseItem) {
  return {
    id: item.releaseId,
    productId: item.productId,
    version: item.version,
    releaseNotes: item.releaseNotes ?? null,
    filePath: item.filePath,
    fileName: item.fileName,
    fileSize: item.fileSize,
    status: item.status,
    downloadCount: item.downloadCount ?? 0,
    tested: item.tested ?? null,
    requires: item.requires ?? null,
    requiresPhp: item.requiresPhp ?? null,
    channel: item.channel ?? DEFAULT_CHANNEL,
    rolloutPercent: item.rolloutPercent ?? DEFAULT_ROLLOUT_PERCENT,
    /** Its desktop files (DECISIONS §26), by platform. */
    files: (item.platformFiles ?? []).map(toPlatformFile),
    releasedAt: item.releasedAt ?? null,
    createdAt: item.createdAt,
    updatedAt: item.updatedAt,
  };
}
export type Release = ReturnType<typeof toRelease>;

const RELEASE_NOT_FOUND = 'Release not found';
/** Rounds of "changed between our read and our write" before answering 409. */
const WRITE_ROUNDS = 5;


/** A product's releases, newest created first (one query; a product has a bounded number of releases). */
/** A release of this tenant's product; anything else (another tenant, another product) is not found. */
async function loadRelease(deps: ReleaseDeps, tenantId: string, productId: string, releaseId: string): Promise<ReleaseItem> {
  const { data } = await deps.data.entities.release.get({ releaseId }).go({ consistent: true });
  if (!data || data.tenantId !== tenantId || data.productId !== productId) throw new NotFoundError(RELEASE_NOT_FOUND);
  return data;
}

/**
 * Checks a release's file in storage: it must be one of this product's uploads, exist, and be a ZIP.
 * The stored size is the truth; a `fileSize` that disagrees with it is refused. Its SHA-1 is taken as stored, for
 * the Composer repository (DECISIONS §24).
 */
async function resolveFile(
  deps: ReleaseDeps,
  tenantId: string,
  productId: string,
  input: { filePath: string; fileName?: string; fileSize?: number },
) {
  if (!isProductFilePath(input.filePath, tenantId, productId)) {
    throw new BadRequestError('filePath: must be a path returned by an upload for this product');
  }
  const stored = await inspectReleaseFile(deps, input.filePath, ZIP_SIGNATURE_LENGTH);
  if (!stored) throw new BadRequestError('filePath: no uploaded file at this path');
  if (!isZipArchive(stored.head)) throw new BadRequestError('filePath: the uploaded file is not a ZIP archive');
  if (input.fileSize !== undefined && input.fileSize !== stored.size) {
    throw new BadRequestError('fileSize: does not match the uploaded file');
  }
  return {
    filePath: input.filePath,
    fileName: sanitizeFileName(input.fileName ?? input.filePath.split('/').pop()!),
    fileSize: stored.size,
    fileSha1: await releaseFileSha1(deps, input.filePath),
  };
}

type PreparedWrite = {
  before?: ReleaseItem;
  after?: ReleaseItem;
  /** The release's own write; its condition must hold `before`'s version and status, which the decision used. */
  write: (release: TransactionEntities['release']) => ReturnType<ReturnType<TransactionEntities['release']['delete']>['commit']>;
  /** The release's readme item, when the change replaces it (`null`: removes it). */
  readme?: EntityItem<'releaseReadme'> | null;
};

/** The product condition of a release write: still live, and its `latestVersion` as it was read. */
const latestVersionHolds =
  (asRead: string | undefined) =>
  ({ latestVersion, deletedAt }: Record<'latestVersion' | 'deletedAt', unknown>, { eq, notExists }: ConditionOperations) =>
    `${notExists(deletedAt)} AND ${asRead === undefined ? notExists(latestVersion) : eq(latestVersion, asRead)}`;

/**
 * Writes one release change together with the product's `latestVersion` and `releasesChangedAt` (the
 * stamp by which every container's update check knows its cached releases are stale), and the version claims the change
 * makes or frees (shared/catalog/releases/version-claims.ts), in one transaction whose conditions hold the product's
 * `latestVersion` (and that it is not deleted) as it was read. A refused claim is 409: another published release has
 * the version. A concurrent change to anything else refuses the transaction, and the change is prepared again from fresh
 * reads. Only removing the current latest, or freeing a claim, consults the product's other releases, through an index
 * that can lag a just-committed write by a moment; every other case needs no index read.
 */
async function writeWithLatestVersion(
  deps: ReleaseDeps,
  tenantId: string,
  productId: string,
  prepare: () => Promise<PreparedWrite>,
): Promise<ReleaseItem | undefined> {
  for (let round = 0; round < WRITE_ROUNDS; round++) {
    const product = await loadLiveProduct(deps, tenantId, productId);
    const current = product.latestVersion;
    const { before, after, write, readme } = await prepare();
    if (after?.status === 'published') await claimPublishedVersions(deps, product);
    const claims = await claimWrites(deps, before, after);
    const change = latestVersionChange(current, before, after);
    const next =
      change.kind === 'keep'
        ? current
        : change.kind === 'set'
          ? change.version
          : recomputeLatest(await productReleases(deps, productId), (before ?? after)!.releaseId, after);
    const now = deps.clock.now();
    const releasesChangedAt = now.toISOString();
    const event = releaseEvent(before, after);
    const releaseId = (before ?? after)!.releaseId;
    const outcome = await transact(deps.data, (tx) => ({
      release: write(tx.release),
      ...claimItems(tx, productId, releaseId, claims, releasesChangedAt),
      readme:
        readme === null
          ? tx.releaseReadme.delete({ releaseId }).commit()
          : readme && tx.releaseReadme.put(readme).commit(),
      event: event && outboxEvent(tx, { tenantId, type: event, data: toRelease(after!), now }),
      product: tx.product
        .patch({ productId })
        .set({ releasesChangedAt, ...(next !== undefined && { latestVersion: next }) })
        .remove(next === undefined ? ['latestVersion'] : [])
        .where(latestVersionHolds(current))
        .commit(),
    }));
    if (outcome.committed) return after;
    if (outcome.refused('claim')) throw versionTaken(after!.version);
    // Refused: the release, a claim or the product changed since they were read; the next round reads them again.
  }
  throw new ConflictError('Release was changed concurrently; retry');
}

/** Every release of the product, newest first. */
export async function listReleases(deps: ReleaseDeps, tenantId: string, productId: string): Promise<Release[]> {
  await loadLiveProduct(deps, tenantId, productId);
  return (await productReleases(deps, productId)).map(toRelease);
}

export async function getRelease(deps: ReleaseDeps, tenantId: string, productId: string, releaseId: string): Promise<Release> {
  await loadLiveProduct(deps, tenantId, productId);
  return toRelease(await loadRelease(deps, tenantId, productId, releaseId));
}

export async function createRelease(deps: ReleaseDeps, tenantId: string, productId: string, input: ReleaseInput): Promise<Release> {
  await loadLiveProduct(deps, tenantId, productId);
  const file = await resolveFile(deps, tenantId, productId, input);
  const { readme, version: zipVersion } = await readReleaseZipFile(deps, file, { findVersion: input.version === undefined });
  const version = input.version ?? zipVersion;
  if (version === undefined) {
    throw new BadRequestError('version is required: the ZIP names none (no plugin header Version:, theme style.css Version: or readme.txt Stable tag)');
  }
  if (!VERSION_PATTERN.test(version)) throw new BadRequestError(`version: the ZIP names "${version.slice(0, 60)}", which ${VERSION_RULE}`);
  const now = deps.clock.now().toISOString();
  const status = input.status ?? 'published';
  const releaseId = newId('rel');
  const readmeRecord = readmeItem(readme, { releaseId, tenantId }, now);
  const item: ReleaseItem = {
    ...withoutNulls({
      releaseNotes: input.releaseNotes,
      tested: input.tested ?? readme?.tested,
      requires: input.requires ?? readme?.requires,
      requiresPhp: input.requiresPhp ?? readme?.requiresPhp,
    }),
    releaseId,
    tenantId,
    productId,
    version,
    ...file,
    status,
    channel: input.channel ?? DEFAULT_CHANNEL,
    rolloutPercent: input.rolloutPercent ?? DEFAULT_ROLLOUT_PERCENT,
    ...(readmeRecord && { hasReadme: true }),
    downloadCount: 0,
    ...(status === 'published' && { releasedAt: now }),
    createdAt: now,
    updatedAt: now,
  };
  await writeWithLatestVersion(deps, tenantId, productId, async () => ({
    after: item,
    write: (release) => release.create(item).commit(),
    readme: readmeRecord,
  }));
  return toRelease(item);
}

export async function updateRelease(
  deps: ReleaseDeps,
  tenantId: string,
  productId: string,
  releaseId: string,
  changes: ReleaseChanges,
): Promise<Release> {
  await loadLiveProduct(deps, tenantId, productId);
  const release = await loadRelease(deps, tenantId, productId, releaseId);
  const file = changes.filePath
    ? await resolveFile(deps, tenantId, productId, { filePath: changes.filePath, fileName: changes.fileName, fileSize: changes.fileSize })
    : undefined;
  if (!file && changes.fileSize !== undefined && changes.fileSize !== release.fileSize) {
    throw new BadRequestError('fileSize: does not match the uploaded file');
  }
  // A new file brings its own readme: it fills the metadata this change does not set, and replaces the old readme.
  const readme = file && (await readReleaseZipFile(deps, file, { findVersion: false })).readme;
  const readmeRecord = file && (readmeItem(readme, release, deps.clock.now().toISOString()) ?? null);
  const fromReadme = Object.fromEntries(README_FIELDS.filter((field) => changes[field] === undefined).map((field) => [field, readme?.[field]]));
  const cleared = OPTIONAL_TEXT.filter((field) => changes[field] === null);
  const updated = await writeWithLatestVersion(deps, tenantId, productId, async () => {
    const before = await loadRelease(deps, tenantId, productId, releaseId);
    const now = deps.clock.now().toISOString();
    const set = {
      ...withoutNulls({
        version: changes.version,
        status: changes.status,
        releaseNotes: changes.releaseNotes,
        tested: changes.tested,
        requires: changes.requires,
        requiresPhp: changes.requiresPhp,
        ...fromReadme,
        channel: changes.channel,
        rolloutPercent: changes.rolloutPercent,
        fileName: changes.fileName === undefined ? undefined : sanitizeFileName(changes.fileName),
      }),
      ...file,
      ...(readmeRecord !== undefined && { hasReadme: readmeRecord !== null }),
      // First publication stamps releasedAt; later status changes keep it.
      ...((changes.status ?? before.status) === 'published' && !before.releasedAt && { releasedAt: now }),
      updatedAt: now,
    };
    const after = { ...before, ...set } as ReleaseItem;
    for (const field of cleared) delete after[field];
    return {
      before,
      after,
      write: (entity) =>
        entity
          .patch({ releaseId })
          .set(set)
          .remove(cleared)
          .where(({ version, status }, { eq }) => `${eq(version, before.version)} AND ${eq(status, before.status)}`)
          .commit(),
      // Removing a readme that was never stored is harmless: a delete needs no item.
      readme: readmeRecord,
    };
  });
  return toRelease(updated!);
}

export async function deleteRelease(deps: ReleaseDeps, tenantId: string, productId: string, releaseId: string): Promise<void> {
  await writeWithLatestVersion(deps, tenantId, productId, async () => {
    const before = await loadRelease(deps, tenantId, productId, releaseId);
    return {
      before,
      write: (entity) =>
        entity
          .delete({ releaseId })
          .where(({ version, status }, { eq }) => `${eq(version, before.version)} AND ${eq(status, before.status)}`)
          .commit(),
      readme: before.hasReadme ? null : undefined,
    };
  });
}
