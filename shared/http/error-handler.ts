import type { MiddlewareObj } from '@middy/core';
import { AppError, ServiceUnavailableError } from '../errors.js';
import { json } from './responses.js';
import type { HttpEvent, HttpResult } from './types.js';

function fromRouter(error: unknown): AppError | undefined {
  // @middy/http-router signals an unknown path with a 404 http error of its own.
  const e = error as { statusCode?: number; expose?: boolean } | undefined;
  if (e?.statusCode === 404 && e.expose) return new AppError(404, 'Not found');
  return undefined;
}

const TRANSIENT_AWS_ERRORS = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'InternalServerError',
  'ServiceUnavailable',
  'TimeoutError',
  'TransactionConflictException',
]);

const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE']);

/**
 * A throttled or unreachable store is the caller's to retry (503), not a bug and never a domain answer.
 * ElectroDB wraps the SDK's error in its own (`cause`), so the whole chain is looked at.
 */
function fromStorage(error: unknown): AppError | undefined {
  for (let e = error as { name?: string; code?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (TRANSIENT_AWS_ERRORS.has(e.name ?? '') || UNREACHABLE.has(e.code ?? '')) return new ServiceUnavailableError();
  }
  return undefined;
}

/** Maps domain errors to `{error}` responses; anything else is logged and answered 500 without details. */
export function errorHandler(): MiddlewareObj<HttpEvent, HttpResult> {
  return {
    onError: async (request) => {
      const error = request.error;
      const known = error instanceof AppError ? error : (fromRouter(error) ?? fromStorage(error));
      if (known) {
        request.response = json(
          known.statusCode,
          known.details ? { error: known.message, details: known.details } : { error: known.message },
          { headers: known.headers },
        );
        return;
      }
      console.error(JSON.stringify({ level: 'error', message: 'unhandled', error: String(error), stack: (error as Error)?.stack }));
      request.response = json(500, { error: 'Internal server error' });
    },
  };
}
