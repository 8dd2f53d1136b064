import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { finished } from 'node:stream/promises';
import type { Context } from 'aws-lambda';
import type { HttpEvent, HttpResult } from '../../shared/platform/http/types.js';
import { SURFACE_TIMEOUT_SECONDS, type RouteSpec, type Surface } from '../routes.js';
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
  /** Each surface's Lambda timeout in seconds, which its invocations' contexts count down from. @default SURFACE_TIMEOUT_SECONDS */
  timeoutSeconds?: Record<Surface, number>;
};

/**
 * The request body, or 'too-large' past API Gateway's limit. Either way the body is read to its end (the
 * excess is dropped, not kept): a client still sending when the answer comes would see its connection reset.
 * Read by events rather than an async iterator, which costs a stream iterator and an end-of-stream watcher per request.
 */
function readBody(req: IncomingMessage): Promise<Buffer | 'too-large'> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size <= PAYLOAD_LIMIT_BYTES) chunks.push(chunk);
    });
    req.on('end', () => resolve(size > PAYLOAD_LIMIT_BYTES ? 'too-large' : chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)));
    req.on('error', reject);
    // A client that goes away before its body ends: nothing to answer.
    req.on('close', () => req.readableEnded || reject(new Error('request closed before its body ended')));
  });
}

async function discardBody(req: IncomingMessage): Promise<void> {
  req.resume();
  await finished(req);
}

/** A path of plain segments (no dot segment, escape, empty segment or query): parsed and decoded, it is itself. */
const PLAIN_PATH = /^(\/|(\/[\w~-][\w.~-]*)+\/?)$/;

/**
 * The request target as API Gateway reads it: the path percent-decoded once (undefined when it cannot be decoded),
 * as it routes and hands it over, the path as sent, and the query. A plain path is taken as it is, without a parse.
 */
function requestTarget(raw: string): { path: string | undefined; pathname: string; search: string; searchParams?: URLSearchParams } {
  if (PLAIN_PATH.test(raw)) return { path: raw, pathname: raw, search: '' };
  const url = new URL(raw, 'http://localhost');
  let path: string | undefined;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    path = undefined;
  }
  return { path, pathname: url.pathname, search: url.search, searchParams: url.searchParams };
}

type RequestTarget = ReturnType<typeof requestTarget>;

/** `requestContext.time`, written once a second: formatting a date costs more than the rest of the event. */
let timeWritten = { second: -1, text: '' };
function requestTime(epochMs: number): string {
  const second = Math.floor(epochMs / 1000);
  if (second !== timeWritten.second) timeWritten = { second, text: new Date(epochMs).toUTCString() };
  return timeWritten.text;
}

const exceedsInvokeLimit = (event: HttpEvent) =>
  (event.body?.length ?? 0) > UNMEASURED_BODY_CHARS && Buffer.byteLength(JSON.stringify(event)) > INVOKE_LIMIT_BYTES;

/** The address CloudFront reports in `cloudfront-viewer-address`: the viewer's IP and port. */
const viewerAddress = (req: IncomingMessage) => `${sourceIpOf(req)}:${req.socket.remotePort ?? 0}`;
const sourceIpOf = (req: IncomingMessage) => (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');

/**
 * Builds the payload-2.0 event API Gateway's HTTP API would send for this request (`path` decoded, as it routes). The
 * optional members are added where they belong rather than spread in, which would build an object for each.
 */
function toEvent(
  req: IncomingMessage,
  target: RequestTarget,
  path: string,
  body: Buffer,
  route: { routeKey: string; pathParameters: Record<string, string> },
  originVerifyToken: string | undefined,
): HttpEvent {
  const { routeKey, pathParameters } = route;
  const received = req.headers;
  const headers: Record<string, string> = {};
  for (const name of Object.keys(received)) {
    const value = received[name];
    if (value === undefined || name === 'cookie') continue;
    headers[name] = Array.isArray(value) ? value.join(',') : value;
  }
  // CloudFront sets both on every origin request, replacing whatever the viewer sent under those names.
  if (originVerifyToken) {
    headers['x-origin-verify'] = originVerifyToken;
    headers['cloudfront-viewer-address'] = viewerAddress(req);
  }
  const event: HttpEvent = { version: '2.0', routeKey, rawPath: path, rawQueryString: target.search.slice(1) } as HttpEvent;
  const cookies = received.cookie?.split(';').map((c) => c.trim()).filter(Boolean);
  if (cookies?.length) event.cookies = cookies;
  event.headers = headers;
  if (target.searchParams) {
    const query: Record<string, string> = {};
    for (const [key, value] of target.searchParams) query[key] = key in query ? `${query[key]},${value}` : value;
    if (Object.keys(query).length) event.queryStringParameters = query;
  }
  if (Object.keys(pathParameters).length) event.pathParameters = pathParameters;
  const now = Date.now();
  event.requestContext = {
    accountId: '000000000000',
    apiId: 'local',
    domainName: received.host ?? 'localhost',
    domainPrefix: 'localhost',
    http: {
      method: req.method ?? 'GET',
      path,
      protocol: `HTTP/${req.httpVersion}`,
      sourceIp: sourceIpOf(req),
      userAgent: received['user-agent'] ?? '',
    },
    requestId: randomUUID(),
    routeKey,
    stage: '$default',
    time: requestTime(now),
    timeEpoch: now,
  };
  const isText = body.length === 0 || TEXT_TYPES.test(received['content-type'] ?? '');
  if (body.length) event.body = isText ? body.toString('utf8') : body.toString('base64');
  event.isBase64Encoded = body.length > 0 && !isText;
  return event;
}

/**
 * Writes the answer as API Gateway does: with its length rather than chunked, so that the head and a text body
 * leave in one write (Node joins a string body to the head it has not sent yet).
 */
function send(res: ServerResponse, result: HttpResult): void {
  const headers: Record<string, string | string[]> = { ...(result.headers as Record<string, string>) };
  if (result.cookies?.length) headers['set-cookie'] = result.cookies;
  if (result.body === undefined) {
    res.writeHead(result.statusCode, headers).end();
    return;
  }
  const body = result.isBase64Encoded ? Buffer.from(result.body, 'base64') : result.body;
  headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : body.length);
  res.writeHead(result.statusCode, headers).end(body);
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
      const target = requestTarget(req.url ?? '/');
      const local = options.localRoutes[target.pathname];
      if (local && req.method === 'GET') return send(res, jsonResult(200, local()));
      if (options.releaseFiles?.owns(target.pathname)) return await options.releaseFiles.serve(req, res, new URL(req.url ?? '/', 'http://localhost'));
      const { path } = target;
      if (path === undefined) {
        await discardBody(req);
        return send(res, jsonResult(400, { message: 'Bad Request' }));
      }
      const found = match(req.method ?? 'GET', path);
      if (!found && options.dashboard && (req.method === 'GET' || req.method === 'HEAD') && options.dashboard.owns(target.pathname)) {
        return options.dashboard.serve(req, res, target.pathname);
      }
      if (!found) {
        await discardBody(req);
        return send(res, jsonResult(404, { message: 'Not Found' }));
      }
      const body = await readBody(req);
      if (body === 'too-large') return send(res, TOO_LARGE);
      const routeKey = `${found.route.method} ${found.route.path}`;
      const event = toEvent(req, target, path, body, { routeKey, pathParameters: found.pathParameters }, options.originVerifyToken);
      if (exceedsInvokeLimit(event)) return send(res, TOO_LARGE);
      const result = await options.handlers[found.route.surface](event, lambdaContext(found.route.surface, (options.timeoutSeconds ?? SURFACE_TIMEOUT_SECONDS)[found.route.surface]));
      send(res, result);
    } catch (error) {
      console.error('local gateway: handler failed', error);
      if (!res.headersSent) send(res, jsonResult(500, { message: 'Internal Server Error' }));
      else res.destroy();
    }
  });
}
