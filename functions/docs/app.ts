import { gzipSync } from 'node:zlib';
import { NotFoundError } from '../../shared/platform/index.js';
import { header, httpApp, type HttpEvent, type HttpResult, type OriginSecret, type Route } from '../../shared/platform/http/index.js';
import type { AssetReader, DocsAssetName } from './assets.js';

const CONTENT_TYPES: Record<string, string> = {
  '.json': 'application/json; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
};
const contentTypeOf = (name: string) => CONTENT_TYPES[name.slice(name.lastIndexOf('.'))] ?? 'application/octet-stream';

/** Everything the page loads comes from this service: the policy itself refuses any other origin. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join('; ');

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Licensing service API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/docs/swagger-ui.css">
</head>
<body>
<div id="swagger-ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

/** Swagger UI reading this service's document; no validator badge (it would call a remote service). */
const INIT_SCRIPT = `window.ui = SwaggerUIBundle({
  url: '/openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
});
`;

/** The files `/docs/{asset}` serves: the renderer's, and the page's own start script. */
const PAGE_ASSETS = new Set<string>(['swagger-ui-bundle.js', 'swagger-ui-bundle.js.LICENSE.txt', 'swagger-ui.css', 'init.js']);

type Cached = { plain: Buffer; gzip?: Buffer };

/**
 * `GET /openapi.json` (the committed document, which a test keeps equal to the generated one), `GET /docs` (the
 * reference page) and its assets. Files are read once per container, when first asked for, and sent gzipped to
 * clients that accept it (Swagger UI's bundle is 1.7 MB, about 500 KB gzipped).
 */
export function docsRoutes(read: AssetReader): Route[] {
  const cache = new Map<string, Cached>();
  const load = (name: string): Cached => {
    let entry = cache.get(name);
    if (!entry) {
      const plain = name === 'init.js' ? Buffer.from(INIT_SCRIPT) : name === 'index.html' ? Buffer.from(PAGE) : read(name as DocsAssetName);
      entry = { plain };
      cache.set(name, entry);
    }
    return entry;
  };
  const serve = (event: HttpEvent, name: string, headers: Record<string, string>): HttpResult => {
    const entry = load(name);
    const base = { 'content-type': contentTypeOf(name), vary: 'accept-encoding', 'x-content-type-options': 'nosniff', ...headers };
    if (entry.plain.length > 1024 && /\bgzip\b/.test(header(event, 'accept-encoding') ?? '')) {
      entry.gzip ??= gzipSync(entry.plain);
      return { statusCode: 200, headers: { ...base, 'content-encoding': 'gzip' }, body: entry.gzip.toString('base64'), isBase64Encoded: true };
    }
    return { statusCode: 200, headers: base, body: entry.plain.toString('utf8') };
  };
  return [
    { method: 'GET', path: '/openapi.json', handler: async (event) => serve(event, 'openapi.json', { 'cache-control': 'public, max-age=300' }) },
    {
      method: 'GET',
      path: '/docs',
      handler: async (event) => serve(event, 'index.html', { 'cache-control': 'public, max-age=300', 'content-security-policy': CONTENT_SECURITY_POLICY }),
    },
    {
      method: 'GET',
      path: '/docs/{asset}',
      handler: async (event) => {
        const name = event.pathParameters?.asset ?? '';
        if (!PAGE_ASSETS.has(name)) throw new NotFoundError();
        return serve(event, name, { 'cache-control': 'public, max-age=3600' });
      },
    },
  ];
}

/** The reference docs: no credentials, no table; open to any origin like the document itself. */
export function createDocsHandler(read: AssetReader, originSecret: OriginSecret | undefined) {
  return httpApp(docsRoutes(read), { cors: { kind: 'open' }, originSecret });
}

