import middy from '@middy/core';
import type { Context } from 'aws-lambda';
import { observability } from '../observability/middleware.js';

/**
 * A queue, stream or schedule consumer's Lambda handler: `handler` behind the same logging and metrics as
 * every HTTP surface (shared/platform/http/app.ts). Its errors are its own to report (batch item failures) or throw.
 */
export function workerApp<Event, Result>(handler: (event: Event, context: Context) => Promise<Result>) {
  return middy<Event, Result>().use(observability()).handler(handler);
}
