export {
  LicensingClient,
  parseCheckoutReturn,
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
  type VersionsInput,
  type MachineIdentity,
} from './client.js';
export { machineFingerprint, type FingerprintOptions } from './fingerprint.js';
export { electronFeedUrl, sparkleFeedUrl, tauriEndpoint, type DesktopFeedOptions } from './desktop-feeds.js';
export { FloatingLease, type FloatingLeaseOptions, type LeaseApi } from './floating-lease.js';
export * from './errors.js';
export { ValidationCache, memoryStorage, webStorage, type CacheStorage, type CacheOptions, type CachedValidation } from './cache.js';
export { Transport, parseRetryAfter, randomUuid, type FetchLike, type TransportOptions, type RequestSpec, type Answer } from './http.js';
export type { ResponseVerifier, VerifiableResponse } from './verify.js';
export { normalizeDomain } from './domain.js';
export { SigningKeys, type SigningOptions, type PublicSigningKey } from './signing-keys.js';
export { SignedAnswerVerifier } from './signed-answers.js';
export { checkLicenseFile, type LicenseFilePayload, type LicenseFileVerdict, type LicenseFileCheck } from './license-file.js';
export type { OfflineOptions } from './offline.js';
export { compareVersions } from './version.js';
export type * from './types.js';
