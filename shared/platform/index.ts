/** The public surface of shared/platform: what the contexts and the functions use of it. */
export { awsClientOptions } from './clients.js';
export { FUNCTION_CONFIG_SECTIONS, PASSWORD_HASH_COST, REGISTRATION_MODES, loadConfig } from './config.js';
export type { Config, CoreConfig, OAuthClientConfig, RegistrationMode } from './config.js';
export { deadlineExceededIn, withinDeadline } from './deadline.js';
export type { DeadlineExceededError } from './deadline.js';
export { AppError, BadGatewayError, BadRequestError, ConflictError, ForbiddenError, NotFoundError, PayloadTooLargeError, PaymentRequiredError, ServiceUnavailableError, TooManyRequestsError, UnauthorizedError, UnsupportedMediaTypeError } from './errors.js';
export { escapeHtml } from './html.js';
export { KEY_ALPHABET, hasIdShape, hasPublicKeyShape, newId, newPublicKey, randomBase32, sha256Hex } from './ids.js';
export { lazily } from './lazily.js';
export { fromMinorUnits, toMinorUnits } from './minor-units.js';
export { withoutNulls } from './optional-fields.js';
export { pageOf, paginateInMemory } from './pagination.js';
export type { Page } from './pagination.js';
export { createDeps, createLoadedDeps } from './runtime.js';
export type { Clock, Deps } from './runtime.js';
export { TtlCache } from './ttl-cache.js';
