import type { MiddlewareObj } from '@middy/core';
import { AppError, BadRequestError, ConflictError, ServiceUnavailableError } from '../errors.js';
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

/** Cancellation reasons of a transaction that say "try again", as the transient errors above do. */
const TRANSIENT_CANCELLATIONS = new Set(['ThrottlingError', 'ProvisionedThroughputExceeded', 'RequestLimitExceeded', 'TransactionConflict']);

const UNREACHABLE = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE']);

export const STORAGE_REFUSED_INPUT = 'Request refused: a value is too large or malformed for storage';
export const CHANGED_CONCURRENTLY = 'The resource was changed concurrently; retry';

type ErrorLink = { name?: string; code?: string; cause?: unknown; CancellationReasons?: { Code?: string }[] };

/** The error and the errors it wraps (ElectroDB puts the SDK's error in `cause`); bounded, as a chain may loop. */
function causeChain(error: unknown): ErrorLink[] {
  const chain: ErrorLink[] = [];
  for (let e = error as ErrorLink | undefined; e && chain.length < 16; e = e.cause as ErrorLink | undefined) chain.push(e);
  return chain;
}

/**
 * DynamoDB's answers that are not bugs of ours: throttled or unreachable (503, the caller may retry), input
 * the store refuses such as a key over its size limit (400, should the input rules ever let one through),
 * and a condition or transaction that no domain code turned into an answer (409: the item changed meanwhile).
 */
function fromStorage(error: unknown): AppError | undefined {
  const chain = causeChain(error);
  if (chain.some((e) => TRANSIENT_AWS_ERRORS.has(e.name ?? '') || UNREACHABLE.has(e.code ?? ''))) return new ServiceUnavailableError();
  const canceled = chain.find((e) => e.name === 'TransactionCanceledException');
  const reasons = (canceled?.CancellationReasons ?? []).map((reason) => reason.Code ?? 'None');
  if (reasons.some((code) => TRANSIENT_CANCELLATIONS.has(code))) return new ServiceUnavailableError();
  if (chain.some((e) => e.name === 'ValidationException') || reasons.includes('ValidationError')) {
    return new BadRequestError(STORAGE_REFUSED_INPUT);
  }
  if (canceled || chain.some((e) => e.name === 'ConditionalCheckFailedException')) return new ConflictError(CHANGED_CONCURRENTLY);
  return undefined;
}

/** Maps domain errors to `{error}` responses; anything else is logged and answered 500 without details. */
export function errorHandler(): MiddlewareObj<HttpEvent, HttpResult> {
  return {
    onError: async (request) => {
      const error = request.error;
      const stored = error instanceof AppError ? undefined : fromStorage(error);
      // A refusal by the store means an input rule or a domain module missed a case: worth a look, not a 500.
      if (stored && stored.statusCode !== 503) log('warn', 'storage refused a request', error);
      const known = error instanceof AppError ? error : (fromRouter(error) ?? stored);
      if (known) {
        request.response = json(
          known.statusCode,
          known.details ? { error: known.message, details: known.details } : { error: known.message },
          { headers: known.headers },
        );
        return;
      }
      log('error', 'unhandled', error);
      request.response = json(500, { error: 'Internal server error' });
    },
  };
}

function log(level: 'warn' | 'error', message: string, error: unknown): void {
  console.error(JSON.stringify({ level, message, error: String(error), stack: (error as Error)?.stack }));
}
