import { readFileSync } from 'node:fs';
import { synthesizeReleaseTemplates } from '../infra/releases/release-stacks.js';
import { committedReleases, compareVersions, writeRelease } from '../infra/releases/releases.js';
import { updateHazards } from '../infra/releases/update-safety.js';

/**
 * `npm run release:template`, when cutting a release (docs/deploy.md, "Cutting a release"): writes the templates of
 * package.json's `version` to `infra/releases/<version>.json`, against which the next release's update is checked
 * (test/infra/update-safety.test.ts). Refuses when a stage deployed from the previous release could not take them.
 */
const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
const previous = committedReleases()
  .filter((release) => compareVersions(release.version, version) < 0)
  .at(-1);
const templates = synthesizeReleaseTemplates();
if (previous) {
  const hazards = Object.entries(templates).flatMap(([name, template]) =>
    previous.templates[name] ? updateHazards(previous.templates[name], template).map((hazard) => `${name}: ${hazard}`) : [],
  );
  if (hazards.length) {
    console.error(`A stage deployed from ${previous.version} could not take ${version} by cdk deploy:\n  ${hazards.join('\n  ')}`);
    process.exit(1);
  }
}
console.log(`Wrote ${writeRelease({ version, templates })}${previous ? ` (checked against ${previous.version})` : ''}`);
