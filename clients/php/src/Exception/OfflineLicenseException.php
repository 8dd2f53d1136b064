<?php

namespace Licensing\Exception;

/**
 * No usable offline license file: none stored, or malformed, forged, expired, for another site, key or product.
 * `reason()`: a file verdict (`tampered`, `expired`, `wrong_domain`, `unknown_key`: docs/api.md) or `missing`,
 * `other_license`, `other_product`, `clock` (the clock is earlier than the file's issue), `not_configured`.
 */
class OfflineLicenseException extends LicensingException
{
    /** @var string */
    private $reason;

    public function __construct(string $message, ?\Throwable $previous = null, string $reason = 'not_configured')
    {
        parent::__construct('offline_license', $message, null, null, [], $previous);
        $this->reason = $reason;
    }

    public function reason(): string
    {
        return $this->reason;
    }
}
