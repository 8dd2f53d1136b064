/** The client's public types, derived from the wire types generated from the service's OpenAPI document. */
import type { components, operations } from './generated/openapi.js';

export type { components, operations, paths } from './generated/openapi.js';
import type { LicensingError, LicenseError } from './errors.js';

type Schemas = components['schemas'];

type FeedbackWireBody = operations['postPublicV1Feedback']['requestBody']['content']['application/json'];

/** `staging` activations (issue 16) do not use a seat; the field is surfaced when the service sends it. */
export type Environment = 'production' | 'staging' | (string & {});

export type LicenseInfo = Schemas['ValidLicense']['license'] & { environment?: Environment };
export type ProductInfo = Schemas['ValidLicense']['product'];
export type PublicPlan = Schemas['PublicPlan'];
export type UpdateInfo = Schemas['UpdateInfo'];
export type FeedbackType = FeedbackWireBody['type'];

/** Where a validation answer came from. */
export type ValidationSource = 'service' | 'cache' | 'offline';

export type ValidResult = {
  valid: true;
  license: LicenseInfo;
  product: ProductInfo;
  /** `service`: answered now. `cache`: the last good answer, served because the service could not be reached. `offline`: an offline license file. */
  source: ValidationSource;
  /** When the service gave this answer (for `cache`, when it was stored; for `offline`, when the file was issued, if it says). */
  checkedAt: Date;
  /** Present when the service (or file) reports it: `staging` activations are reported as such. */
  environment?: Environment;
  /** For `cache` and `offline` answers: why the service was not used. */
  unavailable?: LicensingError;
};

export type InvalidResult = {
  valid: false;
  /** The typed refusal: `LicenseExpiredError`, `LicenseRevokedError`, `LicenseNotFoundError`, … */
  error: LicenseError | LicensingError;
  source: ValidationSource;
};

export type ValidateResult = ValidResult | InvalidResult;

export type ActivateResult = {
  activationId: string;
  activatedAt: string;
  environment?: Environment;
};

export type CheckResult = { activated: true; activationId: string; environment?: Environment } | { activated: false; activationId: null };

export type UpdateCheckResult = {
  /** The latest published version (null when the product has none). */
  latestVersion: string | null;
  /** True when `latestVersion` is newer than the installed version sent. */
  updateAvailable: boolean;
  /** The licensed download (`/v1/download/…`), present only for an active key of this product. */
  downloadUrl: string | null;
  /** The service's whole answer (WordPress plugin-information format). */
  info: UpdateInfo;
};

export type CheckoutReturn = { status: 'activated'; licenseKey: string } | { status: 'pending' };
