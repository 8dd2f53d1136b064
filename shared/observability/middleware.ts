import type { MiddlewareObj } from '@middy/core';
import type { HttpEvent } from '../http/types.js';
import { logger, setCorrelationId } from './logger.js';
import { metrics } from './metrics.js';

/**
 * What every function's chain does per invocation, in one middleware as it runs on every request: the
 * Lambda context (request id, cold start) and the event's correlation id on each log line, and the
 * metrics counted published once as it ends, whether it answered or threw. Powertools' own
 * `injectLambdaContext` would also re-draw debug sampling and merge and reset keys each time; neither
 * is used here, and together they cost more than the rest of this.
 */
export function observability<Event>(correlationIdOf: (event: Event) => string | undefined = () => undefined): MiddlewareObj<Event> {
  const publish = () => metrics.publish();
  return {
    before: (request) => {
      logger.addContext(request.context);
      setCorrelationId(correlationIdOf(request.event));
    },
    after: publish,
    onError: publish,
  };
}

/** For API Gateway events, its own request id is the correlation id (the id its access logs carry). */
export const httpObservability = () => observability((event: HttpEvent) => event.requestContext.requestId);
