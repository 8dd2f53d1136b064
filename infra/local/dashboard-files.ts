import { createReadStream, existsSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';
import { DASHBOARD_ASSETS_DIR, dashboardContentSecurityPolicy, IMMUTABLE_CACHE_CONTROL, REVALIDATE_CACHE_CONTROL } from '../dashboard-headers.js';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.woff2': 'font/woff2',
};


/** The path as a file name; one that cannot be decoded names no file (and falls back to `index.html`). */
function decoded(pathname: string): string {
  try {
    return decodeURIComponent(pathname);
  } catch {
    return '/';
  }
}

export type DashboardFiles = {
  /** Whether a path is the dashboard's: every path outside the service's own prefixes. */
  owns: (pathname: string) => boolean;
  serve: (req: IncomingMessage, res: ServerResponse, pathname: string) => void;
};

/**
 * The built dashboard (`dashboard/dist`), served by the local gateway at `/` as CloudFront serves it from S3 in AWS:
 * a file when there is one, else `index.html` for any path without a file extension (the single-page app's own
 * routes), with the Content-Security-Policy the front door sends. Paths under the service's prefixes (`/api`, `/v1`, `/docs`, …) are never the dashboard's, so an unknown
 * API route stays a JSON 404.
 */
export function dashboardFiles(options: { directory: string; reservedPrefixes: string[]; uploadOrigin: string }): DashboardFiles {
  const root = normalize(options.directory);
  const contentSecurityPolicy = dashboardContentSecurityPolicy(options.uploadOrigin);
  const reserved = options.reservedPrefixes.map((prefix) => prefix.replace(/\/+$/, ''));
  const owns = (pathname: string) => !reserved.some((prefix) => pathname === prefix || pathname.startsWith(`${prefix}/`));

  const send = (req: IncomingMessage, res: ServerResponse, file: string, cacheControl: string) => {
    const size = statSync(file).size;
    res.writeHead(200, {
      'content-type': CONTENT_TYPES[extname(file)] ?? 'application/octet-stream',
      'content-length': size,
      'cache-control': cacheControl,
      'content-security-policy': contentSecurityPolicy,
    });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  };

  const serve = (req: IncomingMessage, res: ServerResponse, pathname: string) => {
    const index = join(root, 'index.html');
    if (!existsSync(index)) {
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('The dashboard is not built: run `npm run build` (npm start builds it).\n');
      return;
    }
    const file = normalize(join(root, decoded(pathname)));
    if (file.startsWith(`${root}${sep}`) && existsSync(file) && statSync(file).isFile()) {
      return send(req, res, file, file.startsWith(join(root, DASHBOARD_ASSETS_DIR, sep)) ? IMMUTABLE_CACHE_CONTROL : REVALIDATE_CACHE_CONTROL);
    }
    if (extname(pathname) === '') return send(req, res, index, REVALIDATE_CACHE_CONTROL);
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ message: 'Not Found' }));
  };

  return { owns, serve };
}
