import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { withDeadline } from '../deadline.js';
import { observability } from '../observability/middleware.js';

/**
 * A queue, stream or schedule consumer's Lambda handler: `handler` behind the same logging and metrics as
 * every HTTP surface (shared/platform/http/app.ts), and one deadline for its calls (shared/platform/deadline.ts): a
 * batch whose calls run out of time reports the rest as failures instead of timing out as a whole. Its errors are
 * its own to report (batch item failures) or throw.
 */
export function workerApp<Event, Result>(handler: (event: Event, context: Context) => Promise<Result>) {
  const app = middy<Event, Result>().use(observability()).handler(handler);
  return withDeadline<Event, Result>((event, context) => app(event, context));
}
