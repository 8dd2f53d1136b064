import type { EntityItem } from '../../../platform/data/index.js';
import { readReleaseFileRange, type StorageDeps } from '../../../platform/storage/index.js';
import type { ParsedReadme } from './parse-readme.js';

/**
 * The readme.txt of a stored release ZIP, parsed (DECISIONS §14), or undefined when the ZIP has none. Read at release
 * creation in the management function, so the parser never weighs on the edge, which reads only what is stored.
 */
export async function readReleaseReadme(deps: StorageDeps, file: { filePath: string; fileSize: number }): Promise<ParsedReadme | undefined> {
  // Loaded on first use: the ZIP reader, Markdown and the sanitizer stay out of the management function's cold start.
  const [{ readmeFromZip }, { parseReadme }] = await Promise.all([import('./zip-readme.js'), import('./parse-readme.js')]);
  const text = await readmeFromZip(file.fileSize, (start, end) => readReleaseFileRange(deps, file.filePath, start, end));
  return text === undefined ? undefined : parseReadme(text);
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
