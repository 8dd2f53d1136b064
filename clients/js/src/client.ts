import { ValidationCache, type CacheOptions } from './cache.js';
import { LicenseExpiredError, OfflineLicenseError, UnavailableError, errorFromAnswer } from './errors.js';
import { Transport, randomUuid, type TransportOptions } from './http.js';
import { FloatingLease, type FloatingLeaseOptions } from './floating-lease.js';
import { withFeatureCheck } from './features.js';
import { checkLicenseFile } from './license-file.js';
import { offlineValidation, type OfflineOptions } from './offline.js';
import { SignedAnswerVerifier } from './signed-answers.js';
import { SigningKeys, type PublicSigningKey, type SigningOptions } from './signing-keys.js';
import type {
  ActivateResult,
  CheckResult,
  FeatureCheck,
  InvalidResult,
  OfflineValidResult,
  CheckoutReturn,
  Environment,
  FeedbackType,
  LicenseInfo,
  OfflineLicense,
  ProductInfo,
  PublicPlan,
  ReleaseChannel,
  ReleaseVersion,
  UpdateCheckResult,
  UpdateInfo,
  ValidateResult,
  ValidResult,
} from './types.js';
import type { ResponseVerifier } from './verify.js';
import { compareVersions } from './version.js';

export interface LicensingClientOptions extends Omit<TransportOptions, 'baseUrl'> {
  /** The service's base URL, e.g. `https://licenses.example.com`. */
  baseUrl: string;
  /** The product's public key (`pk_…`): safe to ship in distributed code. Needed by every call but the update check. */
  publicKey?: string;
  /** The product's slug: validate, activate and check then refuse keys of other products (`WrongProductError`), and the update check asks about it. */
  productSlug?: string;
  /** The installed version of your product, sent along so the vendor sees versions in use. */
  version?: string;
  /**
   * The last good validation of each key, used for `gracePeriodMs` when the service cannot be reached.
   * On by default (in memory); `false` turns it off; `{ storage }` keeps it elsewhere (`webStorage(localStorage)`, a file…).
   */
  cache?: boolean | CacheOptions | ValidationCache;
  /**
   * Verify the service's signed answers and offline license files with the product's Ed25519 keys: pinned
   * (`publicKeys`, recommended) or fetched on first use (`trustOnFirstUse`). An answer that should be signed and is
   * not, or whose signature, digest, time or nonce is wrong, fails with `SignatureError`.
   */
  signing?: SigningOptions;
  /** An offline license file to fall back on when the service cannot be reached (after the cache); needs `signing`. */
  offline?: OfflineOptions;
  /** The clock (ms since the epoch); for tests. */
  now?: () => number;
}

type CallOptions = { signal?: AbortSignal; timeoutMs?: number };

/** A device as `activateMachine` names it. */
export type MachineIdentity = { fingerprint: string; name?: string; platform?: string };

export type ValidateOptions = CallOptions & {
  /** The site asking (a URL or host name); bookkeeping only, it never changes the answer. */
  domain?: string;
  /**
   * The machine asking (`machineFingerprint()`), in place of `domain`: bookkeeping only, except on a floating license,
   * where the machine is valid only while it holds a live lease (else `NoLeaseError`).
   */
  machine?: string;
  version?: string;
  /** Overrides the client's `productSlug` for this call. */
  productSlug?: string;
};

export type ActivateOptions = CallOptions & {
  version?: string;
  productSlug?: string;
  /** `staging` for a test site, where the service supports it (sent as `environment`). */
  environment?: Environment;
  /** Reuse a key to make a repeated logical call (after a crash, say) idempotent; default: a new UUID per call. */
  idempotencyKey?: string;
};

export type DeactivateTarget = string | { domain: string; activationId?: string } | { activationId: string; domain?: string };

export type CheckoutOptions = {
  /** The plan's slug (`plans()` lists them) … */
  plan?: string;
  /** … or its public id (`plan_…`). */
  planId?: string;
  /** Prefills the buyer's e-mail and binds the purchase to it. */
  email?: string;
  /** Where the buyer lands after paying, with `?<activateParam>=<key>` (or `?<pendingParam>=1` while it is being issued). */
  returnUrl?: string;
  activateParam?: string;
  pendingParam?: string;
};

export type FeedbackInput = {
  type: FeedbackType;
  message: string;
  email?: string;
  licenseKey?: string;
  domain?: string;
  metadata?: Record<string, unknown>;
};

export type EventContext = { licenseKey?: string; domain?: string } & CallOptions;

export type DeactivationReasonInput = { reason: string; details?: string; licenseKey?: string; domain?: string };

export type UpdateCheckInput = CallOptions & {
  licenseKey: string;
  /** The installed version. */
  version: string;
  /** The product slug; default the client's `productSlug`. */
  slug?: string;
  /** The site asking, so it counts among active installs; it also draws the site's share of a staged rollout. */
  domain?: string;
  /** The site's own channel (a "Beta updates" opt-in sends `beta`), capped by the license's; default the license's. */
  channel?: ReleaseChannel;
  /** The site's PHP version (`8.2.12`): a release requiring a newer one is not offered. */
  php?: string;
  /** The site's WordPress version (`6.5`): a release requiring a newer one is not offered. */
  wp?: string;
};

export type VersionsInput = CallOptions & {
  licenseKey: string;
  /** The product slug; default the client's `productSlug`. */
  slug?: string;
};

/** How the service's update check begins its notice to an expired license (docs/api.md, Updates after expiry). */
const RENEW_NOTICE = 'Renew your license to update to ';

export const DEFAULT_ACTIVATE_PARAM = 'svc_activate';
export const DEFAULT_PENDING_PARAM = 'svc_pending';

/**
 * The public API of the licensing service, for code that ships to customers: only the product's public key, never
 * a secret. Every call ends within `timeoutMs` (default 5 s), retries what can be retried, and fails with one typed
 * error per answer (see errors.ts).
 */
export class LicensingClient {
  readonly transport: Transport;
  readonly cache: ValidationCache | undefined;
  /** The keys signed answers and offline files are checked with (with the `signing` option). */
  readonly signingKeys: SigningKeys | undefined;
  private readonly options: LicensingClientOptions;
  private readonly now: () => number;

  constructor(options: LicensingClientOptions) {
    if (!options || typeof options.baseUrl !== 'string' || !/^https?:\/\//.test(options.baseUrl)) {
      throw new TypeError('LicensingClient: baseUrl must be an http(s) URL');
    }
    if (options.offline && !options.signing) throw new TypeError('LicensingClient: offline needs signing (the files are checked with its keys)');
    this.options = options;
    this.now = options.now ?? Date.now;
    this.cache =
      options.cache === false
        ? undefined
        : options.cache instanceof ValidationCache
          ? options.cache
          : new ValidationCache(options.cache === true || options.cache === undefined ? {} : options.cache);
    this.signingKeys = options.signing && this.keysFor(options.signing);
    const verifiers: ResponseVerifier[] = [];
    if (this.signingKeys) verifiers.push(new SignedAnswerVerifier(this.signingKeys, { now: this.now, maxSkewSeconds: options.signing!.maxSkewSeconds }));
    if (options.verifier) verifiers.push(options.verifier);
    this.transport = new Transport({
      ...options,
      verifier: verifiers.length ? { verify: async (response) => { for (const verifier of verifiers) await verifier.verify(response); } } : undefined,
    });
  }

  private keysFor(signing: SigningOptions): SigningKeys {
    if (!signing.publicKeys?.length && !signing.trustOnFirstUse) {
      throw new TypeError('LicensingClient: signing needs publicKeys (pinned, recommended) or trustOnFirstUse: true');
    }
    return new SigningKeys({
      pinned: signing.publicKeys?.length ? signing.publicKeys : undefined,
      fetch: signing.publicKeys?.length ? undefined : () => this.fetchSigningKeys(),
      storage: signing.storage ?? this.cache?.storage,
      storageKey: `licensing-keys:${this.options.publicKey ?? ''}`,
      now: this.now,
      subtle: signing.subtle,
    });
  }

  /** The product's signing keys as the service lists them now (`GET /public/v1/signing-key`; unsigned). */
  async fetchSigningKeys(options: CallOptions = {}): Promise<PublicSigningKey[]> {
    const answer = await this.transport.request({
      method: 'GET',
      path: '/public/v1/signing-key',
      query: { public_key: this.publicKey() },
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
    return (answer.body as { keys: PublicSigningKey[] }).keys;
  }

  private publicKey(): string {
    const key = this.options.publicKey;
    if (!key) throw new TypeError('LicensingClient: publicKey is required for this call');
    return key;
  }

  /**
   * Is this key usable? Definite refusals resolve to `{valid: false, error}`; an unreachable service throws, unless the
   * cache or an offline file stands in. `result.hasFeature(key)` says whether the license carries a feature.
   */
  async validate(licenseKey: string, options: ValidateOptions = {}): Promise<ValidateResult> {
    return withFeatureCheck(await this.validateAnswer(licenseKey, options));
  }

  private async validateAnswer(licenseKey: string, options: ValidateOptions): Promise<ValidResult | InvalidResult> {
    const publicKey = this.publicKey();
    let answer;
    try {
      answer = await this.transport.request({
        method: 'POST',
        path: '/public/v1/licenses/validate',
        body: {
          public_key: publicKey,
          license_key: licenseKey,
          product_slug: options.productSlug ?? this.options.productSlug,
          domain: options.domain,
          machine: options.machine,
          version: options.version ?? this.options.version,
        },
        answerStatuses: [400, 403, 404],
        signed: true,
        signal: options.signal,
        timeoutMs: options.timeoutMs,
      });
    } catch (error) {
      if (error instanceof UnavailableError) return this.fallback(publicKey, licenseKey, options, error);
      throw error;
    }
    const body = answer.body as { valid?: unknown; license?: LicenseInfo; product?: ProductInfo; environment?: unknown };
    if (body.valid === true && body.license && body.product) {
      const checkedAt = this.now();
      await this.cache?.store(publicKey, licenseKey, { license: body.license, product: body.product, checkedAt }).catch(() => undefined);
      return withEnvironment({ valid: true, license: body.license, product: body.product, source: 'service', checkedAt: new Date(checkedAt) }, body);
    }
    const error = errorFromAnswer(answer.status, answer.body);
    // A definite "no" ends any grace: the cached answer must not outlive it.
    await this.cache?.forget(publicKey, licenseKey).catch(() => undefined);
    return { valid: false, error, source: 'service' };
  }

  /** The cached answer (within its grace period), else a valid offline file, else the original error. */
  private async fallback(publicKey: string, licenseKey: string, options: ValidateOptions, unavailable: UnavailableError): Promise<ValidResult | InvalidResult> {
    const now = this.now();
    if (this.cache) {
      const found = await this.cache.lookup(publicKey, licenseKey, now);
      if ('entry' in found && !('refused' in found)) {
        return { valid: true, license: found.entry.license, product: found.entry.product, source: 'cache', checkedAt: new Date(found.entry.checkedAt), unavailable };
      }
      if ('refused' in found && found.refused === 'license-expired') {
        return { valid: false, error: new LicenseExpiredError('License has expired', { cause: unavailable }), source: 'cache' };
      }
    }
    if (this.options.offline) {
      const offline = await this.validateOffline(licenseKey, options).catch(() => undefined);
      if (offline) return { ...offline, unavailable };
    }
    throw unavailable;
  }

  /**
   * Validates the stored offline license file (`offline.load()`) for this site (`domain`, required) with the
   * signing keys, without asking the service. Throws `OfflineLicenseError` (with its `reason`) when there is no
   * usable file for this key and site.
   */
  async validateOffline(licenseKey: string, options: { domain?: string; productSlug?: string } = {}): Promise<OfflineValidResult & FeatureCheck> {
    const result = await offlineValidation(
      licenseKey,
      { domain: options.domain, productSlug: options.productSlug ?? this.options.productSlug },
      { offline: this.options.offline, keys: this.signingKeys, now: this.now() },
    );
    return withFeatureCheck(result);
  }

  /**
   * Asks the service for an offline license file for an activated site (`POST /public/v1/licenses/offline`), checks
   * it with the signing keys and keeps it with `offline.save`. Ask again whenever the service can be reached (daily
   * is plenty): the file is valid for the product's `offlineValidityDays` (default 30).
   */
  async fetchOfflineLicense(licenseKey: string, domain: string, options: CallOptions = {}): Promise<OfflineLicense> {
    const answer = await this.transport.request({
      method: 'POST',
      path: '/public/v1/licenses/offline',
      body: { public_key: this.publicKey(), license_key: licenseKey, domain },
      signed: true,
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
    const body = answer.body as { license_file: string; key_id: string; issued_at: string; valid_until: string };
    if (this.signingKeys) {
      const checked = await checkLicenseFile(body.license_file, { keys: this.signingKeys, domain, now: this.now(), refresh: true });
      if (checked.verdict !== 'valid') throw new OfflineLicenseError(checked.verdict, `The service's offline license file does not verify (${checked.verdict})`);
    }
    await this.options.offline?.save?.(body.license_file);
    return { licenseFile: body.license_file, keyId: body.key_id, issuedAt: body.issued_at, validUntil: body.valid_until };
  }

  /** Takes a seat for `domain` (a URL or host name). Repeating it for the same domain answers the same activation. */
  async activate(licenseKey: string, domain: string, options: ActivateOptions = {}): Promise<ActivateResult> {
    const answer = await this.transport.request({
      method: 'POST',
      path: '/public/v1/licenses/activate',
      body: {
        public_key: this.publicKey(),
        license_key: licenseKey,
        domain,
        product_slug: options.productSlug ?? this.options.productSlug,
        version: options.version ?? this.options.version,
        environment: options.environment,
      },
      idempotencyKey: options.idempotencyKey ?? randomUuid(),
      signed: true,
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
    const body = answer.body as { activation_id: string; activated_at: string; environment?: unknown };
    const result: ActivateResult = { activationId: body.activation_id, activatedAt: body.activated_at };
    return withEnvironment(result, body);
  }

  /**
   * Takes a seat for a device (DECISIONS §18): `machine.fingerprint` from `machineFingerprint()`, with a name and
   * platform the vendor sees in its dashboard. Repeating it for the same machine answers the same activation.
   */
  async activateMachine(
    licenseKey: string,
    machine: MachineIdentity,
    options: Omit<ActivateOptions, 'environment'> = {},
  ): Promise<ActivateResult> {
    const answer = await this.transport.request({
      method: 'POST',
      path: '/public/v1/licenses/activate',
      body: {
        public_key: this.publicKey(),
        license_key: licenseKey,
        machine: machine.fingerprint,
        name: machine.name,
        platform: machine.platform,
        product_slug: options.productSlug ?? this.options.productSlug,
        version: options.version ?? this.options.version,
      },
      idempotencyKey: options.idempotencyKey ?? randomUuid(),
      signed: true,
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
    const body = answer.body as { activation_id: string; activated_at: string; environment?: unknown };
    return withEnvironment({ activationId: body.activation_id, activatedAt: body.activated_at }, body);
  }

  /** Frees a device's seat. */
  async deactivateMachine(licenseKey: string, fingerprint: string, options: CallOptions & { idempotencyKey?: string } = {}): Promise<void> {
    const publicKey = this.publicKey();
    await this.transport.request({
      method: 'POST',
      path: '/public/v1/licenses/deactivate',
      body: { public_key: publicKey, license_key: licenseKey, machine: fingerprint },
      idempotencyKey: options.idempotencyKey ?? randomUuid(),
      signed: true,
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
    await this.cache?.forget(publicKey, licenseKey).catch(() => undefined);
  }

  /**
   * Borrows a seat of a floating license for `machine` (or renews the lease it holds). Every seat leased:
   * `SeatsInUseError`. Most apps want `floatingLease()`, which keeps the lease alive and returns it.
   */
  async lease(licenseKey: string, machine: string, options: CallOptions = {}): Promise<{ leaseId: string; expiresAt: string }> {
    const answer = await this.transport.request({
      method: 'POST',
      path: '/public/v1/licenses/leases',
      body: { public_key: this.publicKey(), license_key: licenseKey, machine },
      signed: true,
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
    const body = answer.body as { lease_id: string; expires_at: string };
    return { leaseId: body.lease_id, expiresAt: body.expires_at };
  }

  /** Extends a live lease; an expired or released one is `LeaseNotFoundError`. */
  async heartbeat(licenseKey: string, leaseId: string, options: CallOptions = {}): Promise<{ expiresAt: string }> {
    const answer = await this.transport.request({
      method: 'POST',
      path: `/public/v1/licenses/leases/${encodeURIComponent(leaseId)}/heartbeat`,
      body: { public_key: this.publicKey(), license_key: licenseKey },
      signed: true,
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
    return { expiresAt: (answer.body as { expires_at: string }).expires_at };
  }

  /** Returns a lease's seat at once. */
  async releaseLease(licenseKey: string, leaseId: string, options: CallOptions = {}): Promise<void> {
    await this.transport.request({
      method: 'DELETE',
      path: `/public/v1/licenses/leases/${encodeURIComponent(leaseId)}`,
      query: { public_key: this.publicKey(), license_key: licenseKey },
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
  }

  /** A `FloatingLease` of this client: call `start()`, and `releaseOnExit()` or `release()`. */
  floatingLease(licenseKey: string, machine: string, options?: FloatingLeaseOptions): FloatingLease {
    return new FloatingLease(this, licenseKey, machine, options);
  }

  /** Frees the seat of a domain (or of an activation id). Allowed whatever the license's state. */
  async deactivate(licenseKey: string, target: DeactivateTarget, options: CallOptions & { idempotencyKey?: string } = {}): Promise<void> {
    const publicKey = this.publicKey();
    const which = typeof target === 'string' ? { domain: target } : target;
    await this.transport.request({
      method: 'POST',
      path: '/public/v1/licenses/deactivate',
      body: { public_key: publicKey, license_key: licenseKey, domain: which.domain, activation_id: which.activationId },
      idempotencyKey: options.idempotencyKey ?? randomUuid(),
      signed: true,
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
    // This site gave its seat back: a cached "valid" must not vouch for it any longer.
    await this.cache?.forget(publicKey, licenseKey).catch(() => undefined);
  }

  /** Is `domain` activated? A license that cannot be used throws its typed error, so you can say why. */
  async check(licenseKey: string, domain: string, options: CallOptions & { version?: string; productSlug?: string } = {}): Promise<CheckResult> {
    const answer = await this.transport.request({
      method: 'POST',
      path: '/public/v1/licenses/check',
      body: {
        public_key: this.publicKey(),
        license_key: licenseKey,
        domain,
        product_slug: options.productSlug ?? this.options.productSlug,
        version: options.version ?? this.options.version,
      },
      signed: true,
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
    const body = answer.body as { activated: boolean; activation_id: string | null; environment?: unknown };
    if (body.activated && body.activation_id) return withEnvironment({ activated: true, activationId: body.activation_id }, body);
    return { activated: false, activationId: null };
  }

  /** The product's plans on sale (active and public), each with its `checkoutUrl`. */
  async plans(options: CallOptions = {}): Promise<PublicPlan[]> {
    const answer = await this.transport.request({
      method: 'GET',
      path: '/public/v1/plans',
      query: { public_key: this.publicKey() },
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
    return (answer.body as { plans: PublicPlan[] }).plans;
  }

  /** The URL that opens the hosted checkout of a plan (send the buyer there: a link or `location.href`). No request is made. */
  checkoutUrl(options: CheckoutOptions): string {
    if (!options.plan && !options.planId) throw new TypeError('checkoutUrl: plan (slug) or planId is required');
    const path = options.planId ? `/public/v1/checkout/${encodeURIComponent(options.planId)}` : '/public/v1/checkout';
    return this.transport.url(path, {
      public_key: this.publicKey(),
      plan: options.planId ? undefined : options.plan,
      email: options.email,
      return_url: options.returnUrl,
      activate_param: options.activateParam,
      pending_param: options.pendingParam,
    });
  }

  /** Sends a bug report, feature request or general feedback. Resolves to the stored record's id. */
  async feedback(input: FeedbackInput, options: CallOptions = {}): Promise<{ id: string }> {
    const answer = await this.transport.request({
      method: 'POST',
      path: '/public/v1/feedback',
      body: {
        public_key: this.publicKey(),
        type: input.type,
        message: input.message,
        email: input.email,
        license_key: input.licenseKey,
        domain: input.domain,
        metadata: input.metadata,
      },
      idempotencyKey: randomUuid(),
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
    return { id: (answer.body as { id: string }).id };
  }

  /** Records a usage event (`event` 1–100 characters, `properties` a JSON object of at most 8 KB). */
  async track(event: string, properties?: Record<string, unknown>, context: EventContext = {}): Promise<void> {
    await this.transport.request({
      method: 'POST',
      path: '/public/v1/events',
      body: { public_key: this.publicKey(), event, properties, license_key: context.licenseKey, domain: context.domain },
      idempotencyKey: randomUuid(),
      signal: context.signal,
      timeoutMs: context.timeoutMs,
    });
  }

  /** Records why a user deactivated or uninstalled your product. Resolves to the stored record's id. */
  async deactivationReason(input: DeactivationReasonInput, options: CallOptions = {}): Promise<{ id: string }> {
    const answer = await this.transport.request({
      method: 'POST',
      path: '/public/v1/deactivation-reasons',
      body: { public_key: this.publicKey(), reason: input.reason, details: input.details, license_key: input.licenseKey, domain: input.domain },
      idempotencyKey: randomUuid(),
      signal: options.signal,
      timeoutMs: options.timeoutMs,
    });
    return { id: (answer.body as { id: string }).id };
  }

  /**
   * The release offered to this site, whether it is newer than `version`, and its download URL when the key may
   * download it (`GET /v1/wp/update-check`; no public key needed): the newest on a channel the site may receive,
   * whose requirements its `php` and `wp` meet, and whose rollout includes it. `renewal` says when an expired
   * license keeps it from a newer one.
   */
  async checkForUpdate(input: UpdateCheckInput): Promise<UpdateCheckResult> {
    const answer = await this.transport.request({
      method: 'GET',
      path: '/v1/wp/update-check',
      query: {
        slug: this.updateSlug(input.slug, 'checkForUpdate'),
        license_key: input.licenseKey,
        version: input.version,
        domain: input.domain,
        channel: input.channel,
        php: input.php,
        wp: input.wp,
      },
      signed: true,
      signal: input.signal,
      timeoutMs: input.timeoutMs,
    });
    const info = answer.body as UpdateInfo;
    const latestVersion = info.new_version ?? info.version ?? null;
    return {
      latestVersion,
      updateAvailable: latestVersion !== null && compareVersions(latestVersion, input.version) > 0,
      downloadUrl: info.package ?? null,
      renewal: renewalOf(info),
      info,
    };
  }

  /**
   * Every published release the key may download, newest first, with its licensed download URL: for a "Roll back"
   * list (`GET /v1/wp/versions`). A key that may download nothing throws its license error.
   */
  async versions(input: VersionsInput): Promise<ReleaseVersion[]> {
    const answer = await this.transport.request({
      method: 'GET',
      path: '/v1/wp/versions',
      query: { slug: this.updateSlug(input.slug, 'versions'), license_key: input.licenseKey },
      signed: true,
      signal: input.signal,
      timeoutMs: input.timeoutMs,
    });
    return (answer.body as { versions: ReleaseVersion[] }).versions;
  }

  private updateSlug(slug: string | undefined, call: string): string {
    const chosen = slug ?? this.options.productSlug;
    if (!chosen) throw new TypeError(`${call}: slug (or the client option productSlug) is required`);
    return chosen;
  }
}

/** The renew notice of an expired license: `renewal_url` with it, or the notice alone (a license without a plan). */
function renewalOf(info: UpdateInfo): UpdateCheckResult['renewal'] {
  const notice = info.upgrade_notice ?? '';
  const url = info.renewal_url ?? null;
  if (!url && !notice.startsWith(RENEW_NOTICE)) return null;
  return { notice, url };
}

/** Reads the checkout return URL (`?svc_activate=<key>` or `?svc_pending=1`); null when it carries neither. */
export function parseCheckoutReturn(url: string | URL, options: { activateParam?: string; pendingParam?: string } = {}): CheckoutReturn | null {
  const params = new URL(url).searchParams;
  const key = params.get(options.activateParam ?? DEFAULT_ACTIVATE_PARAM);
  if (key) return { status: 'activated', licenseKey: key };
  if (params.get(options.pendingParam ?? DEFAULT_PENDING_PARAM)) return { status: 'pending' };
  return null;
}

function withEnvironment<T extends object>(result: T, body: { environment?: unknown; license?: { environment?: unknown } }): T & { environment?: Environment } {
  const environment = typeof body.environment === 'string' ? body.environment : typeof body.license?.environment === 'string' ? body.license.environment : undefined;
  return environment ? { ...result, environment } : result;
}
