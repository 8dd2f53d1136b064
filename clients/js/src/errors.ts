/**
 * One error class per answer the service can give (DECISIONS §4), plus the ways a call can fail without a usable
 * answer. Every class extends `LicensingError`, which carries a stable `code`; the license states extend
 * `LicenseError`, so `error instanceof LicenseError` means "the service said no about this key".
 */

export type ErrorCode =
  | 'expired'
  | 'suspended'
  | 'revoked'
  | 'seat_limit'
  | 'not_found'
  | 'wrong_product'
  | 'not_covered'
  | 'invalid_public_key'
  | 'activation_not_found'
  | 'seats_in_use'
  | 'lease_not_found'
  | 'no_lease'
  | 'product_not_found'
  | 'invalid_request'
  | 'rate_limited'
  | 'network'
  | 'timeout'
  | 'server'
  | 'bad_response'
  | 'signature'
  | 'offline_license';

export type ErrorDetails = { path: string; message: string }[];

type ErrorInit = { status?: number; body?: unknown; details?: ErrorDetails; cause?: unknown };

export class LicensingError extends Error {
  /** A stable, machine-readable name of the answer. */
  readonly code: ErrorCode;
  /** The HTTP status of the answer, when there was one. */
  readonly status: number | undefined;
  /** The parsed body of the answer, when there was one. */
  readonly body: unknown;
  /** Per-field problems of a 400 (`details` of the service's error body). */
  readonly details: ErrorDetails | undefined;

  constructor(code: ErrorCode, message: string, init: ErrorInit = {}) {
    super(message, init.cause === undefined ? undefined : { cause: init.cause });
    this.name = new.target.name;
    this.code = code;
    this.status = init.status;
    this.body = init.body;
    this.details = init.details;
  }
}

/** A definite answer about the license key or the product: retrying will not change it. */
export class LicenseError extends LicensingError {}

/** `License has expired` (400). */
export class LicenseExpiredError extends LicenseError {
  constructor(message = 'License has expired', init?: ErrorInit) {
    super('expired', message, init);
  }
}
/** `License is suspended` (400). */
export class LicenseSuspendedError extends LicenseError {
  constructor(message = 'License is suspended', init?: ErrorInit) {
    super('suspended', message, init);
  }
}
/** `License has been revoked` (400). */
export class LicenseRevokedError extends LicenseError {
  constructor(message = 'License has been revoked', init?: ErrorInit) {
    super('revoked', message, init);
  }
}
/** `License seat limit reached` (400): every seat is taken by another domain. */
export class SeatLimitReachedError extends LicenseError {
  constructor(message = 'License seat limit reached', init?: ErrorInit) {
    super('seat_limit', message, init);
  }
}
/** `License key not found` (404): unknown, regenerated, or a key of another product than the public key's. */
export class LicenseNotFoundError extends LicenseError {
  constructor(message = 'License key not found', init?: ErrorInit) {
    super('not_found', message, init);
  }
}
/** `License does not belong to this product` (400): the key is not of the `productSlug` the client names. */
export class WrongProductError extends LicenseError {
  constructor(message = 'License does not belong to this product', init?: ErrorInit) {
    super('wrong_product', message, init);
  }
}
/**
 * `License does not cover this product` (403): a bundle's key (DECISIONS §23) used for a product the bundle does not
 * include, or no longer includes.
 */
export class ProductNotCoveredError extends LicenseError {
  constructor(message = 'License does not cover this product', init?: ErrorInit) {
    super('not_covered', message, init);
  }
}
/** `Invalid public_key` (404): the product's public key is unknown or was replaced. A configuration error. */
export class InvalidPublicKeyError extends LicenseError {
  constructor(message = 'Invalid public_key', init?: ErrorInit) {
    super('invalid_public_key', message, init);
  }
}
/** `Activation not found` (400): deactivating a domain or activation id that holds no active activation. */
export class ActivationNotFoundError extends LicenseError {
  constructor(message = 'Activation not found', init?: ErrorInit) {
    super('activation_not_found', message, init);
  }
}
/** `Product not found` (404) from the update check: unknown or deleted slug. */
export class ProductNotFoundError extends LicenseError {
  constructor(message = 'Product not found', init?: ErrorInit) {
    super('product_not_found', message, init);
  }
}
/** Any other 4xx: the request itself is wrong (`<field> is required`, `domain is not a valid domain or URL`, …). */
export class InvalidRequestError extends LicensingError {
  constructor(message: string, init?: ErrorInit) {
    super('invalid_request', message, init);
  }
}

/** The service could not be used for this call; a validation may fall back to its cache or an offline file. */
export class UnavailableError extends LicensingError {}

/** 429 after the retries the time budget allowed. `retryAfter` is the service's `Retry-After`, in seconds. */
export class RateLimitedError extends UnavailableError {
  readonly retryAfter: number | undefined;
  constructor(message = 'Too many requests', init: ErrorInit & { retryAfter?: number } = {}) {
    super('rate_limited', message, init);
    this.retryAfter = init.retryAfter;
  }
}
/** No answer: DNS, refused or reset connection, TLS, CORS in a browser. */
export class NetworkError extends UnavailableError {
  constructor(message = 'The licensing service could not be reached', init?: ErrorInit, code: ErrorCode = 'network') {
    super(code, message, init);
  }
}
/** No complete answer within the call's time budget (`timeoutMs`). */
export class TimeoutError extends NetworkError {
  constructor(message = 'The licensing service did not answer in time', init?: ErrorInit) {
    super(message, init, 'timeout');
  }
}
/** 5xx after the retries the time budget allowed. */
export class ServerError extends UnavailableError {
  constructor(message: string, init?: ErrorInit) {
    super('server', message, init);
  }
}
/** An answer that is not what the service sends: HTML from a proxy, a captive portal, truncated JSON. */
export class UnexpectedResponseError extends UnavailableError {
  constructor(message: string, init?: ErrorInit) {
    super('bad_response', message, init);
  }
}

/**
 * Why an answer was refused (docs/api.md, Signed answers): `unsigned` (a signature was due), `malformed` (not what the
 * service signs), `tampered` (the digest or the signature does not match), `wrong_nonce`, `stale` (`created` too far
 * from the clock), `unknown_key`, `wrong_license_key` / `wrong_domain` / `wrong_machine` (signed for another request, as a relay would
 * pass on), `refused` (a `verifier` of your own).
 */
export type SignatureReason =
  | 'unsigned'
  | 'malformed'
  | 'tampered'
  | 'wrong_nonce'
  | 'stale'
  | 'unknown_key'
  | 'wrong_license_key'
  | 'wrong_domain'
  | 'wrong_machine'
  | 'refused';

/** A response whose signature the configured `verifier` refused. Never retried, never served from cache. */
export class SignatureError extends LicensingError {
  readonly reason: SignatureReason;
  constructor(message = 'The response signature is invalid', init?: ErrorInit & { reason?: SignatureReason }) {
    super('signature', message, init);
    this.reason = init?.reason ?? 'refused';
  }
}
/** Why no offline license file could stand in: a file verdict (docs/api.md) or what the client checks besides. */
export type OfflineLicenseReason = 'tampered' | 'expired' | 'wrong_domain' | 'unknown_key' | 'clock' | 'missing' | 'other_license' | 'other_product' | 'not_configured';

/** No usable offline license file: none stored, or malformed, forged, expired, for another site, key or product. */
export class OfflineLicenseError extends LicensingError {
  readonly reason: OfflineLicenseReason;
  constructor(reason: OfflineLicenseReason, message: string, init?: ErrorInit) {
    super('offline_license', message, init);
    this.reason = reason;
  }
}

/** `All seats are in use` (409): every seat of a floating license is leased; try again later. */
export class SeatsInUseError extends LicenseError {
  constructor(message = 'All seats are in use', init?: ErrorInit) {
    super('seats_in_use', message, init);
  }
}

/** `Lease not found` (404): the lease expired or was released; take a new one. */
export class LeaseNotFoundError extends LicensingError {
  constructor(message = 'Lease not found', init?: ErrorInit) {
    super('lease_not_found', message, init);
  }
}

/** `Machine holds no live lease` (validate of a floating license for a machine without a lease). */
export class NoLeaseError extends LicenseError {
  constructor(message = 'Machine holds no live lease', init?: ErrorInit) {
    super('no_lease', message, init);
  }
}

const BY_MESSAGE: Record<string, new (message: string, init?: ErrorInit) => LicensingError> = {
  'License has expired': LicenseExpiredError,
  'License expired': LicenseExpiredError,
  'License is suspended': LicenseSuspendedError,
  'License has been revoked': LicenseRevokedError,
  'License seat limit reached': SeatLimitReachedError,
  'All seats are in use': SeatsInUseError,
  'Lease not found': LeaseNotFoundError,
  'Machine holds no live lease': NoLeaseError,
  'License key not found': LicenseNotFoundError,
  'License does not belong to this product': WrongProductError,
  'License does not cover this product': ProductNotCoveredError,
  'Invalid public_key': InvalidPublicKeyError,
  'Activation not found': ActivationNotFoundError,
  'Product not found': ProductNotFoundError,
};

/** The typed error of a 4xx answer, from its status and `error` message. */
export function errorFromAnswer(status: number, body: unknown): LicensingError {
  const record = (body && typeof body === 'object' ? body : {}) as { error?: unknown; details?: unknown };
  const message = typeof record.error === 'string' ? record.error : `HTTP ${status}`;
  const details = Array.isArray(record.details) ? (record.details as ErrorDetails) : undefined;
  const init = { status, body, details };
  const Known = BY_MESSAGE[message];
  if (Known) return new Known(message, init);
  return new InvalidRequestError(message, init);
}
