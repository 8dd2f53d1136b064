import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The dashboard's package (a workspace of this project) and where Vite writes its build. */
export const DASHBOARD_DIR = fileURLToPath(new URL('../dashboard', import.meta.url));
export const DASHBOARD_DIST = join(DASHBOARD_DIR, 'dist');

/**
 * What the build is made from: a change to any of these makes the build stale. The service's version ordering is
 * shared with the release upload form, which tells a duplicate version as the service does.
 */
const SOURCES = ['src', 'index.html', 'vite.config.ts', 'package.json', '../shared/catalog/releases/versions.ts'];

function newestChange(path: string): number {
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  return Math.max(stats.mtimeMs, ...readdirSync(path).map((name) => newestChange(join(path, name))));
}

/** Whether `dashboard/dist` is missing or older than a source file. */
export function dashboardBuildIsStale(): boolean {
  const index = join(DASHBOARD_DIST, 'index.html');
  if (!existsSync(index)) return true;
  const built = statSync(index).mtimeMs;
  return SOURCES.some((source) => newestChange(join(DASHBOARD_DIR, source)) > built);
}

/**
 * Runs the dashboard's production build (Vite) into `outDir`, in a process of its own, with Vite's manifest of the
 * build's files (`.vite/manifest.json`): a deployment retires the assets it no longer names.
 */
export function buildDashboard(outDir = DASHBOARD_DIST): void {
  const vite = join(dirname(createRequire(join(DASHBOARD_DIR, 'package.json')).resolve('vite/package.json')), 'bin', 'vite.js');
  // NODE_ENV as a production build needs it, whatever the caller runs under (vitest sets `test`, which would bundle
  // React's development build).
  const env = { ...process.env, NODE_ENV: 'production' };
  execFileSync(process.execPath, [vite, 'build', '--outDir', outDir, '--emptyOutDir', '--manifest', '--logLevel', 'warn'], { cwd: DASHBOARD_DIR, stdio: 'inherit', env });
}

/**
 * Builds the dashboard when its build is missing or stale, so that `npm start` and the browser tests serve what the
 * sources say without a separate step (a fresh clone has no `dashboard/dist`: it is never committed).
 */
export function ensureDashboardBuilt(): void {
  if (dashboardBuildIsStale()) buildDashboard();
}
