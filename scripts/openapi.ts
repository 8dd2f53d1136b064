/**
 * `npm run openapi`: writes the OpenAPI document generated from the code to docs/openapi.json (served at
 * `/openapi.json`). `npm run openapi -- --check` only compares, and fails when the committed file is stale.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
import { readFileSync, writeFileSync } from 'node:fs';
import { generateOpenApiDocument, serializeOpenApi } from '../infra/openapi.js';

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
}
