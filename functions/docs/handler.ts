import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { originSecretConfigOf, originSecretOf } from '../../shared/platform/http/index.js';
import { assetReader, BUNDLED_ASSETS_DIR } from './assets.js';
import { createDocsHandler } from './app.js';

// In a deployed bundle the assets sit beside index.mjs; run from the source (the local runtime), in the project.
const bundledDir = fileURLToPath(new URL(`./${BUNDLED_ASSETS_DIR}/`, import.meta.url));
const projectRoot = fileURLToPath(new URL('../../', import.meta.url));

export const handler = createDocsHandler(assetReader({ bundledDir, projectRoot, bundled: existsSync(bundledDir) }), originSecretOf(originSecretConfigOf()));
