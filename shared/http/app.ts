import middy from '@middy/core';
import httpRouterHandler from '@middy/http-router';
import { httpObservability } from '../observability/middleware.js';
import { cors, type CorsPolicy } from './cors.js';
import { errorHandler } from './error-handler.js';
import { decodePathParameters } from './path-parameters.js';
import type { Route } from './route.js';
import type { HttpEvent, HttpResult } from './types.js';

/**
 * One surface's Lambda handler: its routes behind logging and metrics, CORS and the error handler; path
 * parameters arrive decoded. A route without parameters gets the event as it came (no copy per request).
 */
export function httpApp(routes: Route[], corsPolicy: CorsPolicy) {
  const decoding = routes.map((route) =>
    route.path.includes('{') ? { ...route, handler: (event: HttpEvent) => route.handler({ ...event, pathParameters: decodePathParameters(event.pathParameters) }) } : route,
  );
  // onError runs in reverse order: the error handler shapes (and logs) the answer, CORS decorates it, then
  // the invocation's metrics are published and its log keys dropped.
  return middy<HttpEvent, HttpResult>()
    .use(httpObservability())
    .use(cors(corsPolicy))
    .use(errorHandler())
    .handler(httpRouterHandler(decoding) as unknown as (event: HttpEvent) => Promise<HttpResult>);
}
