/** The client's public types, derived from the wire types generated from the service's OpenAPI document. */
import type { components, operations } from './generated/openapi.js';

export type { components, operations, paths } from './generated/openapi.js';
import type { LicensingError, LicenseError } from './errors.js';
import type { LicenseFilePayload } from './license-file.js';

type Schemas = components['schemas'];

type FeedbackWireBody = operations['postPublicV1Feedback']['requestBody']['content']['application/json'];

/** `staging` activations (issue 16) do not use a seat; the field is surfaced when the service sends it. */
export type Environment = 'production' | 'staging' | (string & {});

export type LicenseInfo = Schemas['ValidLicense']['license'] & { environment?: Environment };
export type ProductInfo = Schemas['ValidLicense']['product'];
export type PublicPlan = Schemas['PublicPlan'];
export type UpdateInfo = Schemas['UpdateInfo'];
/** A release the license may install (`versions()`), for a "Roll back" list. */
export type ReleaseVersion = Schemas['VersionList']['versions'][number];
/** `stable`, `beta` (beta and stable) or `alpha` (all three). */
export type ReleaseChannel = ReleaseVersion['channel'];
export type FeedbackType = FeedbackWireBody['type'];

/** Where a validation answer came from. */
export type ValidationSource = 'service' | 'cache' | 'offline';

export type ValidResult = ServiceValidResult | OfflineValidResult;

export type ServiceValidResult = {
  valid: true;
  license: LicenseInfo;
  product: ProductInfo;
  /** `service`: answered now. `cache`: the last good answer, served because the service could not be reached. */
  source: 'service' | 'cache';
  /** When the service gave this answer (for `cache`, when it was stored). */
  checkedAt: Date;
  /** Present when the service reports it: `staging` activations are reported as such. */
  environment?: Environment;
  /** For `cache` answers: why the service was not used. */
  unavailable?: LicensingError;
};

/** A valid offline license file for this site, used because the service could not be reached (or `validateOffline`). */
export type OfflineValidResult = {
  valid: true;
  /** What the file says of the license (it holds no activation counts). */
  license: Pick<LicenseInfo, 'key' | 'status' | 'seats' | 'expiresAt' | 'features'>;
  product: Pick<ProductInfo, 'id' | 'slug'>;
  source: 'offline';
  /** When the service issued the file. */
  checkedAt: Date;
  /** Until when the file may stand in. */
  validUntil: Date;
  /** The whole signed payload (activation, domain…). */
  offlineLicense: LicenseFilePayload;
  environment?: undefined;
  /** Why the service was not used (absent for `validateOffline`). */
  unavailable?: LicensingError;
};

export type InvalidResult = {
  valid: false;
  /** The typed refusal: `LicenseExpiredError`, `LicenseRevokedError`, `LicenseNotFoundError`, … */
  error: LicenseError | LicensingError;
  source: ValidationSource;
};

/** Every validate result answers `hasFeature(key)`: whether the valid license carries the feature (false when not valid). */
export type FeatureCheck = { hasFeature(key: string): boolean };

export type ValidateResult = (ValidResult | InvalidResult) & FeatureCheck;

export type ActivateResult = {
  activationId: string;
  activatedAt: string;
  environment?: Environment;
};

export type CheckResult = { activated: true; activationId: string; environment?: Environment } | { activated: false; activationId: null };

export type UpdateCheckResult = {
  /** The version offered to this site (null when none qualifies). */
  latestVersion: string | null;
  /** True when `latestVersion` is newer than the installed version sent. */
  updateAvailable: boolean;
  /** The licensed download (`/v1/download/…`), present only for a key that may download it. */
  downloadUrl: string | null;
  /**
   * An expired license kept from a newer release: the service's notice (`Renew your license to update to 2.0.0`) and
   * the renewal checkout of the license's plan (null for a license issued without one). Null otherwise.
   */
  renewal: { notice: string; url: string | null } | null;
  /** The service's whole answer (WordPress plugin-information format). */
  info: UpdateInfo;
};

export type CheckoutReturn = { status: 'activated'; licenseKey: string } | { status: 'pending' };

/** An offline license file as `fetchOfflineLicense` received it: keep `licenseFile` as it is. */
export type OfflineLicense = { licenseFile: string; keyId: string; issuedAt: string; validUntil: string };
