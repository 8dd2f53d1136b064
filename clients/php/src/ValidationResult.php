<?php

namespace Licensing;

use Licensing\Exception\LicensingException;
use Licensing\Offline\LicenseFile;

/** The answer of `Client::validate()`. */
final class ValidationResult
{
    /** @var bool */
    public $valid;
    /** @var array<string, mixed>|null `key, status, seats, activatedCount, stagingCount, expiresAt, channel, inGrace, features` (null `expiresAt`: lifetime; an offline file holds `key, status, seats, expiresAt, features`) */
    public $license;
    /** @var array<string, mixed>|null `id, name, slug` (an offline file: `id, slug`) */
    public $product;
    /** @var string `service` (answered now), `cache` (the last good answer, the service unreachable), `offline` (an offline file) */
    public $source;
    /** @var int|null Unix time of the service's answer (for `cache`, when it was stored; for `offline`, when the file was issued). */
    public $checkedAt;
    /** @var int|null For `offline`: until when the file may stand in (unix time). */
    public $validUntil;
    /** @var array<string, mixed>|null For `offline`: the file's whole signed payload (activationId, domain, …). */
    public $offlineLicense;
    /** @var LicensingException|null The typed refusal when not valid (LicenseExpiredException, LicenseRevokedException, …). */
    public $error;
    /** @var LicensingException|null For `cache` and `offline` answers: why the service was not used. */
    public $unavailable;
    /** @var string|null `staging` activations are reported as such, when the service says so. */
    public $environment;

    /**
     * @param array<string, mixed>|null $license
     * @param array<string, mixed>|null $product
     */
    private function __construct(bool $valid, ?array $license, ?array $product, string $source, ?int $checkedAt, ?LicensingException $error, ?LicensingException $unavailable, ?string $environment)
    {
        $this->valid = $valid;
        $this->license = $license;
        $this->product = $product;
        $this->source = $source;
        $this->checkedAt = $checkedAt;
        $this->error = $error;
        $this->unavailable = $unavailable;
        $this->environment = $environment;
    }

    /**
     * @param array<string, mixed> $license
     * @param array<string, mixed> $product
     */
    public static function valid(array $license, array $product, string $source, int $checkedAt, ?LicensingException $unavailable = null, ?string $environment = null): self
    {
        return new self(true, $license, $product, $source, $checkedAt, null, $unavailable, $environment);
    }

    /** @param array<string, mixed> $payload A valid offline license file's payload. */
    public static function offline(array $payload): self
    {
        // Files issued before features existed carry none.
        $features = isset($payload['features']) && is_array($payload['features']) ? array_values($payload['features']) : [];
        $license = ['key' => $payload['licenseKey'], 'status' => $payload['status'], 'seats' => $payload['seats'], 'expiresAt' => $payload['expiresAt'], 'features' => $features];
        $result = new self(true, $license, ['id' => $payload['productId'], 'slug' => $payload['productSlug']], 'offline', (int) LicenseFile::seconds($payload['issuedAt']), null, null, null);
        $result->validUntil = (int) LicenseFile::seconds($payload['validUntil']);
        $result->offlineLicense = $payload;
        return $result;
    }

    public static function invalid(LicensingException $error, string $source): self
    {
        return new self(false, null, null, $source, null, $error, null, null);
    }

    public function isValid(): bool
    {
        return $this->valid;
    }

    /**
     * Whether the valid license carries the feature `$key` (its plan's, or as its vendor set them): from the service's
     * verified answer, the cached one or an offline file, all signed. False when the license is not valid.
     */
    public function hasFeature(string $key): bool
    {
        $features = $this->valid && is_array($this->license['features'] ?? null) ? $this->license['features'] : [];
        return in_array($key, $features, true);
    }
}
