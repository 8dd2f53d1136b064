import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { finished } from 'node:stream/promises';
import type { Context } from 'aws-lambda';
import type { HttpEvent, HttpResult } from '../../shared/http/types.js';
import type { RouteSpec, Surface } from '../routes.js';
import type { DashboardFiles } from './dashboard-files.js';
import { lambdaContext } from './lambda-context.js';
import type { ReleaseFilesProxy } from './release-files-proxy.js';
import { createRouteMatcher } from './route-match.js';

export type LambdaHandler = (event: HttpEvent, context: Context) => Promise<HttpResult>;

/** API Gateway refuses larger payloads with 413 before any function runs. */
const PAYLOAD_LIMIT_BYTES = 10 * 1024 * 1024;
/**
 * Lambda refuses a synchronous invoke whose request (the event, as JSON) is over 6 MiB, before the function runs;
 * API Gateway then answers 413 itself (docs/deploy.md). A binary body travels base64-encoded, a third larger.
 */
export const INVOKE_LIMIT_BYTES = 6 * 1024 * 1024;
/** Below this much body an event cannot reach the invoke limit, even with every character JSON-escaped: not measured. */
const UNMEASURED_BODY_CHARS = INVOKE_LIMIT_BYTES / 8;
const TEXT_TYPES = /^(text\/|application\/(json|[\w.+-]+\+json|x-www-form-urlencoded|xml|javascript))/i;

type GatewayOptions = {
  routes: RouteSpec[];
  handlers: Record<Surface, LambdaHandler>;
  /** Local-only routes answered by the gateway itself (e.g. `/_local/mail`). */
  localRoutes: Record<string, () => unknown>;
  /** The built dashboard, answering GET and HEAD of every path that is not the service's; absent: those are 404. */
  dashboard?: DashboardFiles;
  /**
   * The front door's secret: given, the gateway adds it to every request as CloudFront does in AWS (`x-origin-verify`,
   * with `cloudfront-viewer-address`), so the functions see what they see behind the stack's distribution.
   */
  originVerifyToken?: string;
  /** Release files through the front door (`/releases/…`), passed to the S3 stand-in as CloudFront passes them to S3. */
  releaseFiles?: ReleaseFilesProxy;
};

/**
 * The request body, or 'too-large' past API Gateway's limit. Either way the body is read to its end (the
 * excess is dropped, not kept): a client still sending when the answer comes would see its connection reset.
 */
async function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size <= PAYLOAD_LIMIT_BYTES) chunks.push(chunk as Buffer);
  }
  return size > PAYLOAD_LIMIT_BYTES ? 'too-large' : Buffer.concat(chunks);
}

async function discardBody(req: IncomingMessage): Promise<void> {
  req.resume();
  await finished(req);
}

/** The path as API Gateway routes it and hands it over: percent-decoded once; undefined when it cannot be decoded. */
function decodedPath(url: URL): string | undefined {
  try {
    return decodeURIComponent(url.pathname);
  } catch {
    return undefined;
  }
}

const exceedsInvokeLimit = (event: HttpEvent) =>
  (event.body?.length ?? 0) > UNMEASURED_BODY_CHARS && Buffer.byteLength(JSON.stringify(event)) > INVOKE_LIMIT_BYTES;

/** The address CloudFront reports in `cloudfront-viewer-address`: the viewer's IP and port. */
const viewerAddress = (req: IncomingMessage) => `${sourceIpOf(req)}:${req.socket.remotePort ?? 0}`;
const sourceIpOf = (req: IncomingMessage) => (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');

/** Builds the payload-2.0 event API Gateway's HTTP API would send for this request (`path` decoded, as it routes). */
function toEvent(
  req: IncomingMessage,
  url: URL,
  path: string,
  body: Buffer,
  route: { routeKey: string; pathParameters: Record<string, string> },
  originVerifyToken: string | undefined,
): HttpEvent {
  const { routeKey, pathParameters } = route;
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined || name === 'cookie') continue;
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  // CloudFront sets both on every origin request, replacing whatever the viewer sent under those names.
  if (originVerifyToken) Object.assign(headers, { 'x-origin-verify': originVerifyToken, 'cloudfront-viewer-address': viewerAddress(req) });
  const query: Record<string, string> = {};
  for (const [key, value] of url.searchParams) query[key] = key in query ? `${query[key]},${value}` : value;
  const cookies = req.headers.cookie?.split(';').map((c) => c.trim()).filter(Boolean);
  const isText = body.length === 0 || TEXT_TYPES.test(req.headers['content-type'] ?? '');
  const now = new Date();
  return {
    version: '2.0',
    routeKey,
    rawPath: path,
    rawQueryString: url.search.slice(1),
    ...(cookies?.length ? { cookies } : {}),
    headers,
    ...(Object.keys(query).length ? { queryStringParameters: query } : {}),
    ...(Object.keys(pathParameters).length ? { pathParameters } : {}),
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: req.headers.host ?? 'localhost',
      domainPrefix: 'localhost',
      http: {
        method: req.method ?? 'GET',
        path,
        protocol: `HTTP/${req.httpVersion}`,
        sourceIp: sourceIpOf(req),
        userAgent: req.headers['user-agent'] ?? '',
      },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toUTCString(),
      timeEpoch: now.getTime(),
    },
    ...(body.length ? { body: isText ? body.toString('utf8') : body.toString('base64') } : {}),
    isBase64Encoded: body.length > 0 && !isText,
  };
}

function send(res: ServerResponse, result: HttpResult): void {
  const headers: Record<string, string | string[]> = { ...(result.headers as Record<string, string>) };
  if (result.cookies?.length) headers['set-cookie'] = result.cookies;
  res.writeHead(result.statusCode, headers);
  res.end(result.body === undefined ? undefined : Buffer.from(result.body, result.isBase64Encoded ? 'base64' : 'utf8'));
}

const jsonResult = (statusCode: number, body: unknown): HttpResult => ({
  statusCode,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

const TOO_LARGE = jsonResult(413, { message: 'Request Entity Too Large' });

/** A local stand-in for API Gateway: routes HTTP to the same Lambda handlers, in API Gateway's event format. */
export function createGateway(options: GatewayOptions): Server {
  const match = createRouteMatcher(options.routes);
  return createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://localhost');
      const local = options.localRoutes[url.pathname];
      if (local && req.method === 'GET') return send(res, jsonResult(200, local()));
      if (options.releaseFiles?.owns(url.pathname)) return await options.releaseFiles.serve(req, res, url);
      const path = decodedPath(url);
      if (path === undefined) {
        await discardBody(req);
        return send(res, jsonResult(400, { message: 'Bad Request' }));
      }
      const found = match(req.method ?? 'GET', path);
      if (!found && options.dashboard && (req.method === 'GET' || req.method === 'HEAD') && options.dashboard.owns(url.pathname)) {
        return options.dashboard.serve(req, res, url.pathname);
      }
      if (!found) {
        await discardBody(req);
        return send(res, jsonResult(404, { message: 'Not Found' }));
      }
      const body = await readBody(req);
      if (body === 'too-large') return send(res, TOO_LARGE);
      const routeKey = `${found.route.method} ${found.route.path}`;
      const event = toEvent(req, url, path, body, { routeKey, pathParameters: found.pathParameters }, options.originVerifyToken);
      if (exceedsInvokeLimit(event)) return send(res, TOO_LARGE);
      const result = await options.handlers[found.route.surface](event, lambdaContext(found.route.surface));
      send(res, result);
    } catch (error) {
      console.error('local gateway: handler failed', error);
      if (!res.headersSent) send(res, jsonResult(500, { message: 'Internal Server Error' }));
      else res.destroy();
    }
  });
}
