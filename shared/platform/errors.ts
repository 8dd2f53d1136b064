/** Domain errors carry the HTTP status they map to; one middleware turns them into responses. */
export class AppError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly details?: { path: string; message: string }[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class BadRequestError extends AppError {
  constructor(message: string, details?: { path: string; message: string }[]) {
    super(400, message, details);
  }
}
export class UnauthorizedError extends AppError {
  constructor(message = 'Authentication required') {
    super(401, message);
  }
}
/** A payment the request depends on was not made (a plan change whose invoice the buyer's card declined). */
export class PaymentRequiredError extends AppError {
  constructor(message: string) {
    super(402, message);
  }
}
export class ForbiddenError extends AppError {
  constructor(message: string) {
    super(403, message);
  }
}
export class NotFoundError extends AppError {
  constructor(message = 'Not found') {
    super(404, message);
  }
}
export class ConflictError extends AppError {
  constructor(message: string) {
    super(409, message);
  }
}
/** Well-formed, but not a request this one may be (an `Idempotency-Key` reused for another request). */
export class UnprocessableEntityError extends AppError {
  constructor(message: string) {
    super(422, message);
  }
}
export class PayloadTooLargeError extends AppError {
  constructor(message = 'Request body too large') {
    super(413, message);
  }
}
export class UnsupportedMediaTypeError extends AppError {
  constructor(message = 'Content-Type must be application/json') {
    super(415, message);
  }
}
export class TooManyRequestsError extends AppError {
  constructor(message: string, retryAfterSeconds: number) {
    super(429, message, undefined, { 'retry-after': String(retryAfterSeconds) });
  }
}
/** Storage unavailable or throttled: the caller may retry; never reported as a domain answer. */
export class ServiceUnavailableError extends AppError {
  constructor(message = 'Service temporarily unavailable') {
    super(503, message, undefined, { 'retry-after': '1' });
  }
}

/** A service the request depends on (the payment provider) failed or could not be reached: not a bug of ours. */
export class BadGatewayError extends AppError {
  constructor(message: string) {
    super(502, message);
  }
}

/** One link of an error chain: what an SDK, ElectroDB or Node error may carry besides its message. */
export type ErrorLink = {
  name?: string;
  message?: string;
  code?: string | number;
  stack?: string;
  $fault?: string;
  $metadata?: { httpStatusCode?: number; requestId?: string };
  cause?: unknown;
};

/**
 * An error and the errors it wraps, outermost first: ElectroDB puts the SDK's error in `cause`, so what
 * DynamoDB said is found down the chain. Bounded, and each link once, as a chain may loop.
 */
export function errorChain(error: unknown): ErrorLink[] {
  const chain: ErrorLink[] = [];
  for (let e = error as ErrorLink | undefined; e && chain.length < 16 && !chain.includes(e); e = e.cause as ErrorLink | undefined) chain.push(e);
  return chain;
}
