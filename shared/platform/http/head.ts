import type { MiddlewareObj } from '@middy/core';
import type { Route } from './route.js';
import type { HttpEvent, HttpResult } from './types.js';

/** Routes for the router: each GET route also under HEAD, as HTTP lets a client ask for an answer's headers alone. */
export function withHeadRoutes(routes: Route[]): { method: Route['method'] | 'HEAD'; path: string; handler: Route['handler'] }[] {
  return [...routes, ...routes.filter((route) => route.method === 'GET').map((route) => ({ ...route, method: 'HEAD' as const }))];
}

/**
 * A HEAD request's answer is its GET answer without the body, errors included. API Gateway hands HEAD to the
 * function like any other method and passes on whatever body it gets, so the function drops it.
 */
export function headWithoutBody(): MiddlewareObj<HttpEvent, HttpResult> {
  const strip = (request: { event: HttpEvent; response: HttpResult | null }) => {
    if (request.event.requestContext.http.method !== 'HEAD' || !request.response) return;
    const { body: _body, isBase64Encoded: _encoded, ...head } = request.response;
    request.response = head;
  };
  return { after: strip, onError: strip };
}
