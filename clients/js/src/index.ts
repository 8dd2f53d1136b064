export {
  LicensingClient,
  parseCheckoutReturn,
  normalizeDomain,
  DEFAULT_ACTIVATE_PARAM,
  DEFAULT_PENDING_PARAM,
  type LicensingClientOptions,
  type ValidateOptions,
  type ActivateOptions,
  type DeactivateTarget,
  type CheckoutOptions,
  type FeedbackInput,
  type EventContext,
  type DeactivationReasonInput,
  type UpdateCheckInput,
} from './client.js';
export * from './errors.js';
export { ValidationCache, memoryStorage, webStorage, type CacheStorage, type CacheOptions, type CachedValidation } from './cache.js';
export { Transport, parseRetryAfter, randomUuid, type FetchLike, type TransportOptions, type RequestSpec, type Answer } from './http.js';
export type { ResponseVerifier, VerifiableResponse, OfflineLicenseVerifier, OfflineLicensePayload, OfflineOptions } from './verify.js';
export { compareVersions } from './version.js';
export type * from './types.js';
