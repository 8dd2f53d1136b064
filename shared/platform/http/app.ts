import middy from '@middy/core';
import httpRouterHandler from '@middy/http-router';
import type { DataService } from '../data/service.js';
import { withDeadline } from '../deadline.js';
import { httpObservability } from '../observability/middleware.js';
import { cors, type CorsPolicy } from './cors.js';
import { errorHandler } from './error-handler.js';
import { frontDoorOnly, type OriginSecret } from './front-door.js';
import { headWithoutBody, withHeadRoutes } from './head.js';
import type { Route } from './route.js';
import type { HttpEvent, HttpResult } from './types.js';

/**
 * How a surface answers across its routes: its CORS policy, the front door's secret when it has one, and its data
 * service when it has one (each route but a `direct` one loads its model first).
 */
export type HttpAppOptions = { cors: CorsPolicy; originSecret: OriginSecret | undefined; data?: Pick<DataService, 'load' | 'loaded'> };

/** The route, loading the data model before its first request unless it needs none. */
function withDataModel(route: Route, data: HttpAppOptions['data']): Route {
  if (!data || route.data === 'direct') return route;
  const { handler } = route;
  return { ...route, handler: async (event) => (data.loaded ? handler(event) : data.load().then(() => handler(event))) };
}

/**
 * One surface's Lambda handler: its routes (GET ones under HEAD too) behind logging and metrics, CORS and the error
 * handler, and (with a front door) the refusal of requests that came around it; one deadline for the request's calls
 * (shared/platform/deadline.ts). Path parameters arrive as API Gateway hands them over, percent-decoded once
 * (docs/deploy.md): they are never decoded again here, so `%2541` stays `%41`.
 */
export function httpApp(routes: Route[], options: HttpAppOptions) {
  // onError runs in reverse order: the error handler shapes (and logs) the answer, CORS decorates it, a HEAD answer
  // loses its body, then the invocation's metrics are published and its log keys dropped.
  const app = middy<HttpEvent, HttpResult>()
    .use(httpObservability())
    .use(headWithoutBody())
    .use(cors(options.cors))
    .use(errorHandler())
    .use(frontDoorOnly(options.originSecret))
    .handler(httpRouterHandler(withHeadRoutes(routes.map((route) => withDataModel(route, options.data)))) as unknown as (event: HttpEvent) => Promise<HttpResult>);
  return withDeadline<HttpEvent, HttpResult>((event, context) => app(event, context));
}
