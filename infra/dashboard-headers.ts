/**
 * How the dashboard's files are served, in AWS (the front door, `infra/constructs/dashboard-site.ts`) and by the local
 * gateway (`infra/local/dashboard-files.ts`) alike, so the browser tests run under the policy a deployment sends.
 */

/** Where Vite puts the files it names by their content hash. */
export const DASHBOARD_ASSETS_DIR = 'assets';
/** Vite's list of the files of the build (`vite build --manifest`, `infra/dashboard-build.ts`). */
export const BUILD_MANIFEST_KEY = '.vite/manifest.json';
/** The tag of an asset no deployment names any more, which the dashboard bucket's lifecycle rule expires. */
export const RETIRED_TAG = { key: 'retired', value: 'true' } as const;
/** Hashed assets never change, so browsers and CloudFront keep them. */
export const IMMUTABLE_CACHE_CONTROL = 'public, max-age=31536000, immutable';
/** `index.html` (and the other files at the root) name the current assets: always asked again. */
export const REVALIDATE_CACHE_CONTROL = 'no-cache';

/**
 * The dashboard's Content-Security-Policy: its own scripts and styles only (the build inlines none; React sets styles
 * through the DOM, which the policy does not govern), calls to its own origin (`/api`) and the release uploads it
 * sends straight to storage (`uploadOrigin`, the bucket's presigned PUTs), no frames, plugins or foreign forms.
 */
export function dashboardContentSecurityPolicy(uploadOrigin: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    `connect-src 'self' ${uploadOrigin}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}
