<?php

namespace Licensing\Exception;

/** An offline license file that is missing, malformed, of another key or product, expired, or for another domain. */
class OfflineLicenseException extends LicensingException
{
    public function __construct(string $message, ?\Throwable $previous = null)
    {
        parent::__construct('offline_license', $message, null, null, [], $previous);
    }
}
