/**
 * `npm run openapi`: writes the OpenAPI document generated from the code to docs/openapi.json (served at
 * `/openapi.json`), and docs/api.md's route × role matrix. `npm run openapi -- --check` only compares, and fails when
 * the committed file is stale.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
import { readFileSync, writeFileSync } from 'node:fs';
import { createManagementDeps, managementRoutes } from '../functions/management/app.js';
import { permissionMatrix, withMatrix } from '../functions/management/permission-matrix.js';
import { generateOpenApiDocument, serializeOpenApi } from '../infra/openapi.js';
import { ALL_CONFIG_SECTIONS, loadConfig } from '../shared/platform/config.js';

const file = new URL('../docs/openapi.json', import.meta.url);
const text = serializeOpenApi(generateOpenApiDocument());
if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(file, 'utf8');
  } catch {
    // no file yet: stale
  }
  if (committed !== text) {
    console.error('docs/openapi.json is not what the code generates: run `npm run openapi` and commit it.');
    process.exit(1);
  }
  console.log('docs/openapi.json is up to date.');
} else {
  writeFileSync(file, text);
  console.log(`Wrote docs/openapi.json (${(text.length / 1024).toFixed(0)} KB).`);
  const apiDoc = new URL('../docs/api.md', import.meta.url);
  const routes = managementRoutes(createManagementDeps(loadConfig({ TABLE_NAME: 'table', RUNTIME: 'local' }, ALL_CONFIG_SECTIONS)));
  writeFileSync(apiDoc, withMatrix(readFileSync(apiDoc, 'utf8'), permissionMatrix(routes)));
  console.log('Wrote the route × role matrix of docs/api.md.');
}
