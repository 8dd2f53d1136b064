<?php

namespace Licensing;

use Licensing\Exception\LicensingException;

/** The answer of `Client::validate()`. */
final class ValidationResult
{
    /** @var bool */
    public $valid;
    /** @var array<string, mixed>|null `key, status, seats, activatedCount, expiresAt` (null `expiresAt`: lifetime) */
    public $license;
    /** @var array<string, mixed>|null `id, name, slug` */
    public $product;
    /** @var string `service` (answered now), `cache` (the last good answer, the service unreachable), `offline` (an offline file) */
    public $source;
    /** @var int|null Unix time of the service's answer (for `cache`, when it was stored). */
    public $checkedAt;
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

    public static function invalid(LicensingException $error, string $source): self
    {
        return new self(false, null, null, $source, null, $error, null, null);
    }

    public function isValid(): bool
    {
        return $this->valid;
    }
}
