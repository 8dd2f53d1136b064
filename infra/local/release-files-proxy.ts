import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import { RELEASE_FILES_PATH } from '../../shared/platform/storage/download-links.js';
import { presignedUrlProblem } from './presigned-url-check.js';

export type ReleaseFilesProxy = {
  owns: (pathname: string) => boolean;
  serve: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>;
};

/**
 * The front door's release-file behaviour, locally: `GET /releases/…?X-Amz-…` goes to the S3 stand-in with its query
 * untouched and the stand-in's own host, as CloudFront passes it to the bucket, so the stand-in checks the presigned
 * signature as S3 does (checked here: the stand-in does not check Signature V4). The stand-in is addressed
 * path-style, so the bucket's name goes in front of the path, which the signature covers as the functions presigned
 * it. Only GET and HEAD pass, as CloudFront allows.
 */
export function releaseFilesProxy(options: { objectStoreEndpoint: string; bucket: string }): ReleaseFilesProxy {
  const target = new URL(options.objectStoreEndpoint);
  const owns = (pathname: string) => pathname.startsWith(`${RELEASE_FILES_PATH}/`);
  const refuse = (res: ServerResponse, reason: string) => void res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8' }).end(reason);
  const serve = async (req: IncomingMessage, res: ServerResponse, url: URL) => {
    req.resume();
    if (req.method !== 'GET' && req.method !== 'HEAD') return refuse(res, 'This distribution is not configured to allow the HTTP request method');
    const path = `/${options.bucket}${url.pathname}`;
    const problem = await presignedUrlProblem({ method: req.method, host: target, path, query: url.searchParams });
    if (problem) return refuse(res, problem);
    const upstream = request(
      {
        hostname: target.hostname,
        port: target.port,
        method: req.method,
        path: `${path}${url.search}`,
        // CloudFront sends the origin's host and, with no viewer header in the origin request policy, a range only.
        headers: { host: target.host, ...(req.headers.range ? { range: req.headers.range } : {}) },
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain; charset=utf-8' });
      res.end();
    });
    upstream.end();
  };
  return { owns, serve };
}
