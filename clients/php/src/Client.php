<?php

namespace Licensing;

use Licensing\Cache\CacheStorage;
use Licensing\Cache\ValidationCache;
use Licensing\Exception\Errors;
use Licensing\Exception\LicenseExpiredException;
use Licensing\Exception\LicensingException;
use Licensing\Exception\NetworkException;
use Licensing\Exception\OfflineLicenseException;
use Licensing\Exception\RateLimitedException;
use Licensing\Exception\ServerException;
use Licensing\Exception\SignatureException;
use Licensing\Exception\TimeoutException;
use Licensing\Exception\UnavailableException;
use Licensing\Exception\UnexpectedResponseException;
use Licensing\Http\CurlTransport;
use Licensing\Http\Response;
use Licensing\Http\StreamTransport;
use Licensing\Http\Transport;
use Licensing\Offline\OfflineLicenses;
use Licensing\Signing\SignedAnswerVerifier;
use Licensing\Signing\SigningKeys;
use Licensing\Verifier\ResponseVerifier;

/**
 * The public API of the licensing service, for code that ships to customers: only the product's public key
 * (`pk_…`), never a secret. Every call ends within `timeout` seconds (default 5, retries included), retries only
 * what can succeed on a second try (no answer, 408, 429, 5xx; never a 4xx) and fails with one typed exception per
 * answer (src/Exception).
 */
final class Client
{
    public const VERSION = '0.1.0';
    public const DEFAULT_ACTIVATE_PARAM = 'svc_activate';
    public const DEFAULT_PENDING_PARAM = 'svc_pending';

    /** How the service's update check begins its notice to an expired license (docs/api.md, Updates after expiry). */
    public const RENEW_NOTICE = 'Renew your license to update to ';

    private const RETRY_STATUSES = [408, 429, 500, 502, 503, 504];
    /** What the service accepts as `Signature-Nonce`. */
    private const NONCE_PATTERN = '#^[A-Za-z0-9._~+/=-]{1,128}$#';

    /** @var string */
    private $baseUrl;
    /** @var string|null */
    private $publicKey;
    /** @var string|null */
    private $productSlug;
    /** @var string|null */
    private $version;
    /** @var float */
    private $timeout;
    /** @var int */
    private $retries;
    /** @var int */
    private $retryBaseMs;
    /** @var int */
    private $retryMaxMs;
    /** @var Transport */
    private $transport;
    /** @var ValidationCache|null */
    private $cache;
    /** @var ResponseVerifier[] The built-in signature check (with `signing`), then the `verifier` option's. */
    private $verifiers = [];
    /** @var SigningKeys|null */
    private $signingKeys;
    /** @var OfflineLicenses|null */
    private $offline;
    /** @var array<string, string> */
    private $headers;
    /** @var callable(): int */
    private $clock;

    /**
     * @param array<string, mixed> $options
     *   - base_url (required): the service, e.g. `https://licenses.example.com`
     *   - public_key: the product's `pk_…` key; needed by every call but the update check
     *   - product_slug: refuse keys of other products (WrongProductException); the update check's slug
     *   - version: the installed version of your product, sent along for the vendor's statistics
     *   - timeout (5.0): seconds for a whole call, retries and waits included
     *   - retries (2), retry_base_ms (200), retry_max_ms (2000): backoff with full jitter
     *   - cache: null (default: in memory), false (off), a CacheStorage (FileStorage, WordPress\OptionStorage…) or a ValidationCache
     *   - grace_period (259200): seconds the last good validation may stand in for an unreachable service
     *   - signing: verify signed answers and offline license files (a missing or bad signature is a SignatureException):
     *       ['public_keys' => [['keyId' => 'sig_…', 'publicKey' => '<base64>'], …]] pinned (recommended), or
     *       ['trust_on_first_use' => true, 'storage' => CacheStorage (default: the cache's)] fetched once and kept;
     *       'max_skew' (300): seconds an answer's time may be off the clock
     *   - verifier: a ResponseVerifier of your own, run after the built-in one
     *   - offline: ['load' => callable(): ?string, 'save' => callable(string): void] the stored offline license file
     *     (needs `signing`): it stands in for validate when the service cannot be reached
     *   - transport: a Transport (default CurlTransport, else StreamTransport)
     *   - headers: extra request headers
     *   - clock: callable(): int, the time (tests)
     */
    public function __construct(array $options)
    {
        $baseUrl = isset($options['base_url']) ? (string) $options['base_url'] : '';
        if (!preg_match('#^https?://#i', $baseUrl)) {
            throw new \InvalidArgumentException('Licensing\Client: base_url must be an http(s) URL');
        }
        $this->baseUrl = rtrim($baseUrl, '/');
        $this->publicKey = isset($options['public_key']) && $options['public_key'] !== '' ? (string) $options['public_key'] : null;
        $this->productSlug = isset($options['product_slug']) && $options['product_slug'] !== '' ? (string) $options['product_slug'] : null;
        $this->version = isset($options['version']) ? (string) $options['version'] : null;
        $this->timeout = isset($options['timeout']) ? (float) $options['timeout'] : 5.0;
        $this->retries = isset($options['retries']) ? max(0, (int) $options['retries']) : 2;
        $this->retryBaseMs = isset($options['retry_base_ms']) ? (int) $options['retry_base_ms'] : 200;
        $this->retryMaxMs = isset($options['retry_max_ms']) ? (int) $options['retry_max_ms'] : 2000;
        $this->transport = isset($options['transport']) && $options['transport'] instanceof Transport
            ? $options['transport']
            : (CurlTransport::available() ? new CurlTransport() : new StreamTransport());
        $cache = array_key_exists('cache', $options) ? $options['cache'] : null;
        $grace = isset($options['grace_period']) ? (int) $options['grace_period'] : 259200;
        if ($cache === false) {
            $this->cache = null;
        } elseif ($cache instanceof ValidationCache) {
            $this->cache = $cache;
        } else {
            $this->cache = new ValidationCache($cache instanceof CacheStorage ? $cache : null, $grace);
        }
        $this->headers = isset($options['headers']) && is_array($options['headers']) ? array_change_key_case($options['headers'], CASE_LOWER) : [];
        $this->clock = isset($options['clock']) && is_callable($options['clock']) ? $options['clock'] : static function (): int {
            return time();
        };
        if (isset($options['signing']) && is_array($options['signing'])) {
            $this->signingKeys = $this->signingKeys($options['signing']);
            $this->verifiers[] = new SignedAnswerVerifier($this->signingKeys, $this->clock, (int) ($options['signing']['max_skew'] ?? 300));
        }
        if (isset($options['verifier']) && $options['verifier'] instanceof ResponseVerifier) {
            $this->verifiers[] = $options['verifier'];
        }
        if (isset($options['offline']['load'])) {
            if ($this->signingKeys === null) {
                throw new \InvalidArgumentException('Licensing\Client: offline needs signing (the files are checked with its keys)');
            }
            $this->offline = new OfflineLicenses($options['offline']['load'], $options['offline']['save'] ?? null, $this->signingKeys);
        }
    }

    /** @param array<string, mixed> $signing */
    private function signingKeys(array $signing): SigningKeys
    {
        if (!empty($signing['public_keys'])) {
            return SigningKeys::pinned($signing['public_keys'], $this->clock);
        }
        if (empty($signing['trust_on_first_use'])) {
            throw new \InvalidArgumentException('Licensing\Client: signing needs public_keys (pinned, recommended) or trust_on_first_use');
        }
        $storage = isset($signing['storage']) && $signing['storage'] instanceof CacheStorage ? $signing['storage'] : ($this->cache ? $this->cache->storage() : null);
        return SigningKeys::trustOnFirstUse(function (): array {
            return $this->fetchSigningKeys();
        }, $storage, 'licensing-keys:' . (string) $this->publicKey, $this->clock);
    }

    /**
     * The product's signing keys as the service lists them now (`GET /public/v1/signing-key`; unsigned).
     *
     * @return array<int, array{keyId: string, publicKey: string, expiresAt: ?string}>
     */
    public function fetchSigningKeys(): array
    {
        return $this->request('GET', '/public/v1/signing-key', ['public_key' => $this->publicKey()], null)['body']['keys'];
    }

    public function cache(): ?ValidationCache
    {
        return $this->cache;
    }

    private function publicKey(): string
    {
        if ($this->publicKey === null) {
            throw new \LogicException('Licensing\Client: public_key is required for this call');
        }
        return $this->publicKey;
    }

    private function now(): int
    {
        return (int) call_user_func($this->clock);
    }

    /**
     * Is this key usable? A definite refusal is a result with `valid === false` and a typed `error`; an unreachable
     * service throws (UnavailableException), unless the cache or an offline file stands in.
     *
     * `machine` (a device's fingerprint) in place of `domain`: on a floating license, valid only while it holds a live lease.
     *
     * @param array{domain?: string, machine?: string, version?: string, product_slug?: string, timeout?: float} $options
     */
    public function validate(string $licenseKey, array $options = []): ValidationResult
    {
        $publicKey = $this->publicKey();
        try {
            $answer = $this->request('POST', '/public/v1/licenses/validate', null, [
                'public_key' => $publicKey,
                'license_key' => $licenseKey,
                'product_slug' => $options['product_slug'] ?? $this->productSlug,
                'domain' => $options['domain'] ?? null,
                'machine' => $options['machine'] ?? null,
                'version' => $options['version'] ?? $this->version,
            ], null, [400, 403, 404], $options['timeout'] ?? null, true);
        } catch (UnavailableException $unavailable) {
            return $this->fallback($publicKey, $licenseKey, $options, $unavailable);
        }
        $body = $answer['body'];
        if (is_array($body) && ($body['valid'] ?? null) === true && isset($body['license'], $body['product'])) {
            $now = $this->now();
            if ($this->cache) {
                $this->cache->store($publicKey, $licenseKey, $body['license'], $body['product'], $now);
            }
            return ValidationResult::valid($body['license'], $body['product'], 'service', $now, null, self::environmentOf($body));
        }
        if ($this->cache) {
            // A definite "no" ends any grace.
            $this->cache->forget($publicKey, $licenseKey);
        }
        return ValidationResult::invalid(Errors::fromAnswer($answer['status'], $body), 'service');
    }

    /** @param array<string, mixed> $options */
    private function fallback(string $publicKey, string $licenseKey, array $options, UnavailableException $unavailable): ValidationResult
    {
        $now = $this->now();
        if ($this->cache) {
            $found = $this->cache->lookup($publicKey, $licenseKey, $now);
            if (isset($found['entry']) && !isset($found['refused'])) {
                $entry = $found['entry'];
                return ValidationResult::valid($entry['license'], $entry['product'], 'cache', (int) $entry['checkedAt'], $unavailable, self::environmentOf($entry));
            }
            if (($found['refused'] ?? null) === 'license-expired') {
                return ValidationResult::invalid(new LicenseExpiredException('License has expired', null, null, $unavailable), 'cache');
            }
        }
        if ($this->offline !== null) {
            try {
                $result = $this->validateOffline($licenseKey, $options);
                $result->unavailable = $unavailable;
                return $result;
            } catch (LicensingException $e) {
                // No usable file (or, trusting on first use, no keys yet): the original error stands.
            }
        }
        throw $unavailable;
    }

    /**
     * Validates the stored offline license file for this site (`domain`, required) with the signing keys, without
     * asking the service.
     *
     * @param array{domain?: string, product_slug?: string} $options
     * @throws OfflineLicenseException saying why there is no usable file (`reason()`)
     */
    public function validateOffline(string $licenseKey, array $options = []): ValidationResult
    {
        if ($this->offline === null) {
            throw new OfflineLicenseException('Offline license files need the offline and signing options', null, 'not_configured');
        }
        return $this->offline->validate($licenseKey, $options['domain'] ?? null, $options['product_slug'] ?? $this->productSlug, $this->now());
    }

    /**
     * Asks the service for an offline license file for an activated site (`POST /public/v1/licenses/offline`), checks
     * it with the signing keys and keeps it with the `offline` option's `save`. Ask again whenever the service can be
     * reached (daily is plenty): a file is valid for the product's `offlineValidityDays` (default 30).
     *
     * @param array{timeout?: float} $options
     * @return array{license_file: string, key_id: string, issued_at: string, valid_until: string}
     */
    public function fetchOfflineLicense(string $licenseKey, string $domain, array $options = []): array
    {
        $answer = $this->request('POST', '/public/v1/licenses/offline', null, [
            'public_key' => $this->publicKey(),
            'license_key' => $licenseKey,
            'domain' => $domain,
        ], null, [], $options['timeout'] ?? null, true);
        $body = $answer['body'];
        if ($this->offline !== null) {
            $this->offline->keep((string) $body['license_file'], $domain, $this->now());
        }
        return $body;
    }

    /**
     * Takes a seat for $domain (a URL or host name). Repeating it for the same domain answers the same activation.
     *
     * @param array{version?: string, product_slug?: string, environment?: string, idempotency_key?: string, timeout?: float} $options
     * @return array{activation_id: string, activated_at: string, environment?: string}
     */
    public function activate(string $licenseKey, string $domain, array $options = []): array
    {
        $answer = $this->request('POST', '/public/v1/licenses/activate', null, [
            'public_key' => $this->publicKey(),
            'license_key' => $licenseKey,
            'domain' => $domain,
            'product_slug' => $options['product_slug'] ?? $this->productSlug,
            'version' => $options['version'] ?? $this->version,
            'environment' => $options['environment'] ?? null,
        ], $options['idempotency_key'] ?? self::uuid(), [], $options['timeout'] ?? null, true);
        $body = $answer['body'];
        $result = ['activation_id' => (string) $body['activation_id'], 'activated_at' => (string) ($body['activated_at'] ?? '')];
        $environment = self::environmentOf($body);
        if ($environment !== null) {
            $result['environment'] = $environment;
        }
        return $result;
    }

    /**
     * Takes a seat for a device by its fingerprint (DECISIONS §18), with the name and platform the vendor sees.
     *
     * @param array{name?: string, platform?: string, version?: string, product_slug?: string, idempotency_key?: string, timeout?: float} $options
     * @return array{activation_id: string, activated_at: string}
     */
    public function activateMachine(string $licenseKey, string $machine, array $options = []): array
    {
        $answer = $this->request('POST', '/public/v1/licenses/activate', null, [
            'public_key' => $this->publicKey(),
            'license_key' => $licenseKey,
            'machine' => $machine,
            'name' => $options['name'] ?? null,
            'platform' => $options['platform'] ?? null,
            'product_slug' => $options['product_slug'] ?? $this->productSlug,
            'version' => $options['version'] ?? $this->version,
        ], $options['idempotency_key'] ?? self::uuid(), [], $options['timeout'] ?? null, true);
        return ['activation_id' => (string) $answer['body']['activation_id'], 'activated_at' => (string) ($answer['body']['activated_at'] ?? '')];
    }

    /**
     * Frees a device's seat.
     *
     * @param array{idempotency_key?: string, timeout?: float} $options
     */
    public function deactivateMachine(string $licenseKey, string $machine, array $options = []): void
    {
        $publicKey = $this->publicKey();
        $this->request('POST', '/public/v1/licenses/deactivate', null, [
            'public_key' => $publicKey,
            'license_key' => $licenseKey,
            'machine' => $machine,
        ], $options['idempotency_key'] ?? self::uuid(), [], $options['timeout'] ?? null, true);
        if ($this->cache) {
            $this->cache->forget($publicKey, $licenseKey);
        }
    }

    /**
     * Borrows a seat of a floating license for $machine, or renews the live lease it holds. Every seat leased:
     * SeatsInUseException. Heartbeat before `expires_at`; release when done.
     *
     * @param array{timeout?: float} $options
     * @return array{lease_id: string, expires_at: string}
     */
    public function lease(string $licenseKey, string $machine, array $options = []): array
    {
        $answer = $this->request('POST', '/public/v1/licenses/leases', null, [
            'public_key' => $this->publicKey(),
            'license_key' => $licenseKey,
            'machine' => $machine,
        ], null, [], $options['timeout'] ?? null, true);
        return ['lease_id' => (string) $answer['body']['lease_id'], 'expires_at' => (string) $answer['body']['expires_at']];
    }

    /**
     * Extends a live lease; an expired or released one throws LeaseNotFoundException.
     *
     * @param array{timeout?: float} $options
     */
    public function heartbeat(string $licenseKey, string $leaseId, array $options = []): string
    {
        $answer = $this->request('POST', '/public/v1/licenses/leases/' . rawurlencode($leaseId) . '/heartbeat', null, [
            'public_key' => $this->publicKey(),
            'license_key' => $licenseKey,
        ], null, [], $options['timeout'] ?? null, true);
        return (string) $answer['body']['expires_at'];
    }

    /**
     * Returns a lease's seat at once.
     *
     * @param array{timeout?: float} $options
     */
    public function releaseLease(string $licenseKey, string $leaseId, array $options = []): void
    {
        $this->request('DELETE', '/public/v1/licenses/leases/' . rawurlencode($leaseId), [
            'public_key' => $this->publicKey(),
            'license_key' => $licenseKey,
        ], null, null, [], $options['timeout'] ?? null);
    }

    /**
     * Frees the seat of a domain (a string) or of an activation (`['activation_id' => …]`).
     *
     * @param string|array{domain?: string, activation_id?: string} $target
     * @param array{idempotency_key?: string, timeout?: float} $options
     */
    public function deactivate(string $licenseKey, $target, array $options = []): void
    {
        $which = is_array($target) ? $target : ['domain' => (string) $target];
        $publicKey = $this->publicKey();
        $this->request('POST', '/public/v1/licenses/deactivate', null, [
            'public_key' => $publicKey,
            'license_key' => $licenseKey,
            'domain' => $which['domain'] ?? null,
            'activation_id' => $which['activation_id'] ?? null,
        ], $options['idempotency_key'] ?? self::uuid(), [], $options['timeout'] ?? null, true);
        if ($this->cache) {
            $this->cache->forget($publicKey, $licenseKey);
        }
    }

    /**
     * Is $domain activated? A license that cannot be used throws its typed exception.
     *
     * @param array{version?: string, product_slug?: string, timeout?: float} $options
     * @return array{activated: bool, activation_id: ?string, environment?: string}
     */
    public function check(string $licenseKey, string $domain, array $options = []): array
    {
        $answer = $this->request('POST', '/public/v1/licenses/check', null, [
            'public_key' => $this->publicKey(),
            'license_key' => $licenseKey,
            'domain' => $domain,
            'product_slug' => $options['product_slug'] ?? $this->productSlug,
            'version' => $options['version'] ?? $this->version,
        ], null, [], $options['timeout'] ?? null, true);
        $body = $answer['body'];
        if (!empty($body['activated']) && !empty($body['activation_id'])) {
            $result = ['activated' => true, 'activation_id' => (string) $body['activation_id']];
            $environment = self::environmentOf($body);
            if ($environment !== null) {
                $result['environment'] = $environment;
            }
            return $result;
        }
        return ['activated' => false, 'activation_id' => null];
    }

    /**
     * The product's plans on sale, each with its `checkoutUrl`.
     *
     * @return array<int, array{id: string, name: string, slug: string, price: float|int, currency: string, billingCycle: string, siteLimit: int, checkoutUrl: string}>
     */
    public function plans(): array
    {
        $answer = $this->request('GET', '/public/v1/plans', ['public_key' => $this->publicKey()], null);
        return $answer['body']['plans'];
    }

    /**
     * The URL of a plan's hosted checkout (no request is made).
     *
     * @param array{plan?: string, plan_id?: string, email?: string, return_url?: string, activate_param?: string, pending_param?: string} $options
     */
    public function checkoutUrl(array $options): string
    {
        if (empty($options['plan']) && empty($options['plan_id'])) {
            throw new \InvalidArgumentException('checkoutUrl: plan (slug) or plan_id is required');
        }
        $path = !empty($options['plan_id']) ? '/public/v1/checkout/' . rawurlencode((string) $options['plan_id']) : '/public/v1/checkout';
        return $this->url($path, [
            'public_key' => $this->publicKey(),
            'plan' => !empty($options['plan_id']) ? null : $options['plan'],
            'email' => $options['email'] ?? null,
            'return_url' => $options['return_url'] ?? null,
            'activate_param' => $options['activate_param'] ?? null,
            'pending_param' => $options['pending_param'] ?? null,
        ]);
    }

    /**
     * Reads the checkout return (`?svc_activate=<key>` or `?svc_pending=1`) from a query array such as $_GET.
     *
     * @param array<string, mixed> $query
     * @return array{status: string, license_key?: string}|null
     */
    public static function parseCheckoutReturn(array $query, string $activateParam = self::DEFAULT_ACTIVATE_PARAM, string $pendingParam = self::DEFAULT_PENDING_PARAM): ?array
    {
        if (isset($query[$activateParam]) && is_string($query[$activateParam]) && $query[$activateParam] !== '') {
            return ['status' => 'activated', 'license_key' => $query[$activateParam]];
        }
        if (!empty($query[$pendingParam])) {
            return ['status' => 'pending'];
        }
        return null;
    }

    /**
     * Sends feedback. Returns the stored record's id.
     *
     * @param string $type `bug`, `feature` or `general`
     * @param array{email?: string, license_key?: string, domain?: string, metadata?: array<string, mixed>} $options
     */
    public function feedback(string $type, string $message, array $options = []): string
    {
        $answer = $this->request('POST', '/public/v1/feedback', null, [
            'public_key' => $this->publicKey(),
            'type' => $type,
            'message' => $message,
            'email' => $options['email'] ?? null,
            'license_key' => $options['license_key'] ?? null,
            'domain' => $options['domain'] ?? null,
            'metadata' => isset($options['metadata']) ? (object) $options['metadata'] : null,
        ], self::uuid());
        return (string) $answer['body']['id'];
    }

    /**
     * Records a usage event (`$event` 1–100 characters; `$properties` at most 8 KB as JSON).
     *
     * @param array<string, mixed> $properties
     * @param array{license_key?: string, domain?: string} $options
     */
    public function track(string $event, array $properties = [], array $options = []): void
    {
        $this->request('POST', '/public/v1/events', null, [
            'public_key' => $this->publicKey(),
            'event' => $event,
            'properties' => $properties === [] ? null : (object) $properties,
            'license_key' => $options['license_key'] ?? null,
            'domain' => $options['domain'] ?? null,
        ], self::uuid());
    }

    /**
     * Records why a user deactivated or uninstalled your product. Returns the stored record's id.
     *
     * @param array{details?: string, license_key?: string, domain?: string} $options
     */
    public function deactivationReason(string $reason, array $options = []): string
    {
        $answer = $this->request('POST', '/public/v1/deactivation-reasons', null, [
            'public_key' => $this->publicKey(),
            'reason' => $reason,
            'details' => $options['details'] ?? null,
            'license_key' => $options['license_key'] ?? null,
            'domain' => $options['domain'] ?? null,
        ], self::uuid());
        return (string) $answer['body']['id'];
    }

    /**
     * The release offered to this site, whether it is newer than $version, and its download URL when the key may
     * download it (`GET /v1/wp/update-check`; no public key needed). `info` is the whole answer (WordPress
     * plugin-information format). The service offers the newest release on a channel the site may receive (its
     * `channel`, capped by the license's), whose requirements its `php` and `wp` meet, and whose rollout includes it
     * (drawn by `domain`). `renewal` is set when an expired license keeps the site from a newer release:
     * `['notice' => 'Renew your license to update to 2.0.0', 'url' => <the plan's checkout, or null>]`.
     *
     * @param array{slug?: string, domain?: string, channel?: string, php?: string, wp?: string, timeout?: float} $options
     * @return array{latest_version: ?string, update_available: bool, download_url: ?string, renewal: ?array{notice: string, url: ?string}, info: array<string, mixed>}
     */
    public function checkForUpdate(string $licenseKey, string $version, array $options = []): array
    {
        $answer = $this->request('GET', '/v1/wp/update-check', [
            'slug' => $this->updateSlug($options, 'checkForUpdate'),
            'license_key' => $licenseKey,
            'version' => $version,
            'domain' => $options['domain'] ?? null,
            'channel' => $options['channel'] ?? null,
            'php' => $options['php'] ?? null,
            'wp' => $options['wp'] ?? null,
        ], null, null, [], $options['timeout'] ?? null, true);
        $info = $answer['body'];
        if (!is_array($info) || !isset($info['slug'])) {
            throw new UnexpectedResponseException('The update check answered an unexpected body', $answer['status']);
        }
        $latest = $info['new_version'] ?? ($info['version'] ?? null);
        return [
            'latest_version' => $latest,
            'update_available' => $latest !== null && version_compare((string) $latest, $version, '>'),
            'download_url' => isset($info['package']) && $info['package'] !== '' ? (string) $info['package'] : null,
            'renewal' => self::renewalOf($info),
            'info' => $info,
        ];
    }

    /**
     * Every published release the key may download, newest first, for a "Roll back" list (`GET /v1/wp/versions`):
     * `[['version', 'channel', 'releasedAt', 'requires', 'requiresPhp', 'tested', 'package'], …]`. A key that may
     * download nothing throws its license exception (LicenseExpiredException, LicenseRevokedException, …).
     *
     * @param array{slug?: string, timeout?: float} $options
     * @return array<int, array<string, mixed>>
     */
    public function versions(string $licenseKey, array $options = []): array
    {
        $answer = $this->request('GET', '/v1/wp/versions', [
            'slug' => $this->updateSlug($options, 'versions'),
            'license_key' => $licenseKey,
        ], null, null, [], $options['timeout'] ?? null, true);
        $body = $answer['body'];
        if (!is_array($body) || !isset($body['versions']) || !is_array($body['versions'])) {
            throw new UnexpectedResponseException('The versions list answered an unexpected body', $answer['status']);
        }
        return array_values(array_filter($body['versions'], 'is_array'));
    }

    /** @param array{slug?: string} $options */
    private function updateSlug(array $options, string $call): string
    {
        $slug = $options['slug'] ?? $this->productSlug;
        if ($slug === null || $slug === '') {
            throw new \InvalidArgumentException($call . ': slug (or the product_slug option) is required');
        }
        return (string) $slug;
    }

    /**
     * The service's "renew to update" of an expired license: its `upgrade_notice` when `renewal_url` comes with it or
     * the notice is the renewal one (a license issued without a plan has no renewal link).
     *
     * @param array<string, mixed> $info
     * @return array{notice: string, url: ?string}|null
     */
    private static function renewalOf(array $info): ?array
    {
        $notice = isset($info['upgrade_notice']) && is_string($info['upgrade_notice']) ? $info['upgrade_notice'] : '';
        $url = isset($info['renewal_url']) && is_string($info['renewal_url']) && $info['renewal_url'] !== '' ? $info['renewal_url'] : null;
        if ($url === null && strpos($notice, self::RENEW_NOTICE) !== 0) {
            return null;
        }
        return ['notice' => $notice, 'url' => $url];
    }

    /**
     * One call: the time budget, retries, the verifier, status and content type checked before parsing.
     *
     * @param array<string, mixed>|null $query
     * @param array<string, mixed>|null $body
     * @param int[] $answerStatuses Statuses whose JSON body is an answer to return (validate's refusals).
     * @param bool $signed The service signs this route's answers: a `Signature-Nonce` goes with it, the same on retries.
     * @return array{status: int, headers: array<string, string>, body: mixed}
     */
    private function request(string $method, string $path, ?array $query, ?array $body, ?string $idempotencyKey = null, array $answerStatuses = [], ?float $timeout = null, bool $signed = false): array
    {
        $budget = $timeout ?? $this->timeout;
        $deadline = microtime(true) + $budget;
        $url = $this->url($path, $query ?? []);
        // Messages name the route, never the query: it may carry a license key.
        $shown = $this->baseUrl . $path;
        $headers = array_merge(['accept' => 'application/json', 'user-agent' => 'licensing-php/' . self::VERSION], $this->headers);
        $payload = null;
        if ($body !== null) {
            $payload = (string) json_encode(array_filter($body, static function ($value): bool {
                return $value !== null;
            }), JSON_UNESCAPED_SLASHES | JSON_UNESCAPED_UNICODE);
            $headers['content-type'] = 'application/json';
        }
        if ($idempotencyKey !== null) {
            $headers['idempotency-key'] = $idempotencyKey;
        }
        if ($signed) {
            // A write's nonce is its idempotency key (a fresh UUID per logical call unless the caller gives one), so
            // a replayed answer, which carries the first request's nonce, verifies.
            $headers['signature-nonce'] = $idempotencyKey !== null && preg_match(self::NONCE_PATTERN, $idempotencyKey) ? $idempotencyKey : self::nonce();
        }
        for ($attempt = 0; ; $attempt++) {
            $remaining = $deadline - microtime(true);
            if ($remaining <= 0) {
                throw new TimeoutException('No answer from ' . $shown . ' within ' . $budget . ' s');
            }
            $retryAfter = null;
            try {
                try {
                    $response = $this->transport->send($method, $url, $headers, $payload, $remaining);
                } catch (TimeoutException $e) {
                    throw new TimeoutException('No answer from ' . $shown . ' within ' . $budget . ' s', $e);
                }
                return $this->answer($response, ['method' => $method, 'url' => $url, 'path' => $path, 'headers' => $headers, 'body' => $payload, 'signed' => $signed], $shown, $answerStatuses);
            } catch (RateLimitedException $e) {
                $error = $e;
                $retryAfter = $e->retryAfter();
            } catch (ServerException $e) {
                $error = $e;
                $retryAfter = $e->retryAfter();
            } catch (NetworkException $e) {
                $error = $e;
            }
            if ($attempt >= $this->retries) {
                throw $error;
            }
            $backoff = mt_rand(0, (int) min($this->retryMaxMs, $this->retryBaseMs * (2 ** $attempt))) / 1000;
            $delay = max($backoff, $retryAfter !== null ? (float) $retryAfter : 0.0);
            if (microtime(true) + $delay >= $deadline) {
                throw $error; // a Retry-After longer than what is left ends the call with the answer we have
            }
            usleep((int) ($delay * 1000000));
        }
    }

    /**
     * @param array{method: string, url: string, path: string, headers: array<string, string>, body: ?string, signed: bool} $request As sent.
     * @param int[] $answerStatuses
     * @return array{status: int, headers: array<string, string>, body: mixed}
     */
    private function answer(Response $response, array $request, string $shown, array $answerStatuses): array
    {
        $status = $response->status;
        $retryable = in_array($status, self::RETRY_STATUSES, true);
        if (!$retryable) {
            foreach ($this->verifiers as $verifier) {
                try {
                    $verifier->verify($request, $response);
                } catch (SignatureException $e) {
                    throw $e;
                } catch (\Throwable $e) {
                    throw new SignatureException('The response signature is invalid (' . $e->getMessage() . ')', $status, $e);
                }
            }
        }
        $type = (string) $response->header('content-type');
        $isJson = (bool) preg_match('#^application/([\w.+-]+\+)?json\b#i', $type);
        $decoded = null;
        if ($isJson) {
            $decoded = json_decode($response->body, true);
            if ($decoded === null && json_last_error() !== JSON_ERROR_NONE) {
                $isJson = false;
            }
        }
        if ($status === 204) {
            return ['status' => $status, 'body' => null];
        }
        if ($status >= 200 && $status < 300) {
            if (!$isJson) {
                throw new UnexpectedResponseException('Expected JSON from ' . $shown . ', got ' . ($type !== '' ? $type : 'no content type') . ' (' . $status . ')', $status);
            }
            return ['status' => $status, 'headers' => $response->headers, 'body' => $decoded];
        }
        if ($retryable) {
            $message = is_array($decoded) && isset($decoded['error']) && is_string($decoded['error']) ? $decoded['error'] : 'HTTP ' . $status . ' from ' . $shown;
            if ($status === 429) {
                $after = self::retryAfter($response->header('retry-after'));
                throw new RateLimitedException($message, $after === null ? null : (int) ceil($after), $decoded);
            }
            throw new ServerException($message, $status, $decoded, self::retryAfter($response->header('retry-after')));
        }
        if (!$isJson) {
            if ($status >= 500 || $status < 400) {
                throw new ServerException('HTTP ' . $status . ' from ' . $shown, $status);
            }
            throw new UnexpectedResponseException('Expected JSON from ' . $shown . ', got ' . ($type !== '' ? $type : 'no content type') . ' (' . $status . ')', $status);
        }
        if (in_array($status, $answerStatuses, true)) {
            return ['status' => $status, 'headers' => $response->headers, 'body' => $decoded];
        }
        throw Errors::fromAnswer($status, $decoded);
    }

    /** Seconds from a `Retry-After` value (whole seconds or an HTTP date). */
    public static function retryAfter(?string $value): ?float
    {
        if ($value === null || trim($value) === '') {
            return null;
        }
        if (ctype_digit(trim($value))) {
            return (float) trim($value);
        }
        $at = strtotime($value);
        return $at === false ? null : (float) max(0, $at - time());
    }

    /** @param array<string, mixed> $query */
    private function url(string $path, array $query): string
    {
        $query = array_filter($query, static function ($value): bool {
            return $value !== null;
        });
        return $this->baseUrl . $path . ($query ? '?' . http_build_query($query, '', '&', PHP_QUERY_RFC3986) : '');
    }

    /**
     * A host name as the service normalizes it (scheme, user info, `www.`, port, path and trailing dot dropped,
     * lower-cased, an international name in its ASCII form): what a bound answer's `domain` is compared with.
     */
    public static function normalizeDomain(string $input): string
    {
        $value = trim($input);
        if (!preg_match('#^[a-z][a-z0-9+.-]*://#i', $value)) {
            $value = 'http://' . (strpos($value, '//') === 0 ? substr($value, 2) : $value);
        }
        $host = parse_url($value, PHP_URL_HOST);
        $host = is_string($host) ? $host : trim($input);
        return (string) preg_replace('/^www\./', '', rtrim(Idna::toAscii($host), '.'));
    }

    /** 16 random bytes in base64url: a `Signature-Nonce`. */
    private static function nonce(): string
    {
        return rtrim(strtr(base64_encode(random_bytes(16)), '+/', '-_'), '=');
    }

    /** A random UUID (v4), sent as `Idempotency-Key`. */
    public static function uuid(): string
    {
        $bytes = random_bytes(16);
        $bytes[6] = chr((ord($bytes[6]) & 0x0f) | 0x40);
        $bytes[8] = chr((ord($bytes[8]) & 0x3f) | 0x80);
        return vsprintf('%s%s-%s-%s-%s-%s%s%s', str_split(bin2hex($bytes), 4));
    }

    /** @param mixed $body */
    private static function environmentOf($body): ?string
    {
        if (is_array($body) && isset($body['environment']) && is_string($body['environment'])) {
            return $body['environment'];
        }
        if (is_array($body) && isset($body['license']['environment']) && is_string($body['license']['environment'])) {
            return $body['license']['environment'];
        }
        return null;
    }
}
