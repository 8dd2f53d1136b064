import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Template } from './release-stacks.js';

/** One release's templates, by deployment (`RELEASE_DEPLOYMENTS`): what a stage deployed from it runs. */
export type Release = { version: string; templates: Record<string, Template> };

const RELEASES_DIR = new URL('./', import.meta.url);
const RELEASE_FILE = /^(\d+\.\d+\.\d+)\.json$/;

/** Semver order of plain `major.minor.patch` versions. */
export function compareVersions(a: string, b: string): number {
  const [pa, pb] = [a, b].map((v) => v.split('.').map(Number));
  for (let i = 0; i < 3; i++) if (pa![i] !== pb![i]) return pa![i]! - pb![i]!;
  return 0;
}

/** Every release committed in `infra/releases/`, oldest first. */
export function committedReleases(): Release[] {
  return readdirSync(RELEASES_DIR)
    .flatMap((name) => RELEASE_FILE.exec(name)?.[1] ?? [])
    .sort(compareVersions)
    .map((version) => JSON.parse(readFileSync(new URL(`${version}.json`, RELEASES_DIR), 'utf8')) as Release);
}

/** Writes a release's templates as `infra/releases/<version>.json`. */
export function writeRelease(release: Release): string {
  const file = new URL(`${release.version}.json`, RELEASES_DIR);
  writeFileSync(file, `${JSON.stringify(release, null, 1)}\n`);
  return file.pathname;
}
