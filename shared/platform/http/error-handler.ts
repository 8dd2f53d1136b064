import type { MiddlewareObj } from '@middy/core';
import { deadlineExceededIn } from '../deadline.js';
import { AppError, BadRequestError, ConflictError, errorChain, ServiceUnavailableError } from '../errors.js';
import { logger } from '../observability/logger.js';
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

export const STORAGE_REFUSED_INPUT = 'Request refused: a value is too large or malformed for storage';
export const CHANGED_CONCURRENTLY = 'The resource was changed concurrently; retry';


/**
 * DynamoDB's answers that are not bugs of ours: throttled or unreachable (503, the caller may retry), input
 * the store refuses such as a key over its size limit (400, should the input rules ever let one through; a
 * transaction refused item by item for it arrives named so, from shared/platform/data/writes.ts), and a condition
 * that no domain code turned into an answer (409: the item changed meanwhile). Transaction cancellations are
 * read in shared/platform/data/writes.ts alone: ElectroDB returns them, it does not throw them.
 */
function fromStorage(error: unknown): AppError | undefined {
  const chain = errorChain(error);
  if (chain.some((e) => TRANSIENT_AWS_ERRORS.has(e.name ?? '') || UNREACHABLE.has(String(e.code)))) return new ServiceUnavailableError();
  if (chain.some((e) => e.name === 'ValidationException')) return new BadRequestError(STORAGE_REFUSED_INPUT);
  if (chain.some((e) => e.name === 'ConditionalCheckFailedException')) return new ConflictError(CHANGED_CONCURRENTLY);
  return undefined;
}

/** The answer of a domain error: `{error}`, with `details` and headers when it has them. */
export function errorAnswer(known: AppError): HttpResult {
  return json(known.statusCode, known.details ? { error: known.message, details: known.details } : { error: known.message }, { headers: known.headers });
}

/** Maps domain errors to `{error}` responses; anything else is logged and answered 500 without details. */
export function errorHandler(): MiddlewareObj<HttpEvent, HttpResult> {
  return {
    onError: async (request) => {
      const error = request.error;
      // Calls cut off by the request's deadline, however the client that made them wrapped it.
      const late = deadlineExceededIn(error);
      if (late) logger.warn('Request ran out of time for its calls', { http: httpOf(request.event) });
      const stored = error instanceof AppError || late ? undefined : fromStorage(error);
      // A refusal by the store means an input rule or a domain module missed a case: worth a look, not a 500.
      if (stored && stored.statusCode !== 503) logger.warn('Storage refused a request', { error, http: httpOf(request.event) });
      const known = late ?? (error instanceof AppError ? error : (fromRouter(error) ?? stored));
      if (known) {
        request.response = errorAnswer(known);
        return;
      }
      // The whole cause chain, redacted (shared/platform/observability/logger.ts): what DynamoDB said is in ElectroDB's `cause`.
      logger.error('Unhandled error', { error, http: httpOf(request.event) });
      request.response = json(500, { error: 'Internal server error' });
    },
  };
}

/** Which request failed: method and path (never the query, headers or body, which may carry keys and personal data). */
const httpOf = (event: HttpEvent) => ({ method: event.requestContext.http.method, path: event.rawPath });
