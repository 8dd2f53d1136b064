import type { EntityItem } from '../../../platform/data/index.js';
import { readReleaseFileRange, type StorageDeps } from '../../../platform/storage/index.js';
import type { ParsedReadme } from './parse-readme.js';

/** What a stored release ZIP gives the release: its readme.txt parsed, and the version the ZIP names. */
export type ReleaseZip = { readme?: ParsedReadme; version?: string };

/**
 * The readme.txt of a stored release ZIP, parsed (DECISIONS §14), and with `findVersion` the version the ZIP names
 * (DECISIONS §22): its plugin header's or theme's `Version:`, else the readme's `Stable tag`. Read at release creation
 * in the management function, so the parser never weighs on the edge, which reads only what is stored.
 */
export async function readReleaseZipFile(
  deps: StorageDeps,
  file: { filePath: string; fileSize: number },
  { findVersion }: { findVersion: boolean },
): Promise<ReleaseZip> {
  // Loaded on first use: the ZIP reader, Markdown and the sanitizer stay out of the management function's cold start.
  const [{ readReleaseZip }, { parseReadme }] = await Promise.all([import('./zip-readme.js'), import('./parse-readme.js')]);
  const contents = await readReleaseZip(file.fileSize, (start, end) => readReleaseFileRange(deps, file.filePath, start, end), { headerVersion: findVersion });
  const readme = contents.readme === undefined ? undefined : parseReadme(contents.readme);
  const version = findVersion ? (contents.headerVersion ?? readme?.stableTag) : undefined;
  return { ...(readme && { readme }), ...(version && { version }) };
}

/** The fields a readme fills where the release does not set them. */
export const README_FIELDS = ['tested', 'requires', 'requiresPhp'] as const;

/** The stored item of a readme that has something for the update check beyond its headers; undefined otherwise. */
export function readmeItem(readme: ParsedReadme | undefined, release: { releaseId: string; tenantId: string }, now: string) {
  if (!readme || (Object.keys(readme.sections).length === 0 && readme.upgradeNotices.length === 0)) return undefined;
  const item: EntityItem<'releaseReadme'> = {
    releaseId: release.releaseId,
    tenantId: release.tenantId,
    sections: readme.sections,
    upgradeNotices: readme.upgradeNotices,
    createdAt: now,
  };
  return item;
}
