import middy, { type MiddlewareObj } from '@middy/core';
import type { Context } from 'aws-lambda';
import { metrics } from '../observability/metrics.js';
import { withDeadline } from '../deadline.js';
import { observability } from '../observability/middleware.js';

/**
 * A queue, stream or schedule consumer's Lambda handler: `handler` behind the same logging and metrics as
 * every HTTP surface (shared/platform/http/app.ts), and one deadline for its calls (shared/platform/deadline.ts): a
 * batch whose calls run out of time reports the rest as failures instead of timing out as a whole. Its errors are
 * its own to report (batch item failures) or throw; a thrown one is counted (`WorkerFailures`, alarmed:
 * docs/observability.md) before the invocation fails.
 */
export function workerApp<Event, Result>(handler: (event: Event, context: Context) => Promise<Result>) {
  // Registered after observability, so its onError runs first: the count is in the metrics observability publishes.
  const app = middy<Event, Result>().use(observability()).use(countedFailures()).handler(handler);
  return withDeadline<Event, Result>((event, context) => app(event, context));
}

function countedFailures(): MiddlewareObj {
  return { onError: () => metrics.workerFailure() };
}
