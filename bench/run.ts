import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * `npm run bench`: runs every benchmark under bench/ in its own process (each starts its own local stack),
 * one after the other so they do not compete for the machine. Exits non-zero if any target is missed.
 */
const here = dirname(fileURLToPath(import.meta.url));
const benchmarks = readdirSync(here).filter((f) => f.endsWith('.ts') && f !== 'run.ts').sort();
let failed = 0;
for (const file of benchmarks) {
  console.log(`\n=== ${file} ===`);
  const result = spawnSync(process.execPath, ['--import', 'tsx', join(here, file)], { stdio: 'inherit' });
  if (result.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
