import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The files the reference docs serve, each by name, with where it lives in the project. The stack copies them
 * beside the docs function's bundle (`infra/constructs/service-function.ts`, `assets`), and the local runtime
 * reads them where they are, so `/docs` works with no network in both: the renderer is Swagger UI from the
 * `swagger-ui-dist` package, never a CDN.
 */
export const DOCS_ASSETS = {
  'openapi.json': 'docs/openapi.json',
  'swagger-ui-bundle.js': 'node_modules/swagger-ui-dist/swagger-ui-bundle.js',
  'swagger-ui-bundle.js.LICENSE.txt': 'node_modules/swagger-ui-dist/swagger-ui-bundle.js.LICENSE.txt',
  'swagger-ui.css': 'node_modules/swagger-ui-dist/swagger-ui.css',
} as const;

export type DocsAssetName = keyof typeof DOCS_ASSETS;

/** The directory beside the bundle's `index.mjs` that holds the copied assets. */
export const BUNDLED_ASSETS_DIR = 'docs-assets';

/** Reads an asset: from `bundledDir` in a deployed bundle, else from the project (the local runtime, tests). */
export type AssetReader = (name: DocsAssetName) => Buffer;

export function assetReader(locations: { bundledDir: string; projectRoot: string; bundled: boolean }): AssetReader {
  return (name) => readFileSync(locations.bundled ? join(locations.bundledDir, name) : join(locations.projectRoot, DOCS_ASSETS[name]));
}
