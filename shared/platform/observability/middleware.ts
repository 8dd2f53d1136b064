import type { MiddlewareObj } from '@middy/core';
import type { HttpEvent } from '../http/types.js';
import { startInvocation } from './logger.js';
import { metrics } from './metrics.js';

/**
 * What every function's chain does per invocation, in one middleware as it runs on every request: the
 * Lambda context (request id, cold start) and the event's correlation id for the log lines it may write, and
 * the metrics counted published once as it ends, whether it answered or threw. Powertools' own
 * `injectLambdaContext` would add a fresh debug-sampling draw and a merge and reset of log keys to every
 * request, some 5 µs measured; here three fields are set, read only if a line is written (shared/platform/observability/logger.ts).
 */
export function observability<Event>(correlationIdOf: (event: Event) => string | undefined = () => undefined): MiddlewareObj<Event> {
  const publish = () => metrics.publish();
  return {
    before: (request) => startInvocation(request.context, correlationIdOf(request.event)),
    after: publish,
    onError: publish,
  };
}

/** For API Gateway events, its own request id is the correlation id (the id its access logs carry). */
export const httpObservability = () => observability((event: HttpEvent) => event.requestContext.requestId);
