<?php

namespace Licensing\Exception;

/** `License has expired` (400). */
class LicenseExpiredException extends LicenseException
{
    /** @param mixed $body */
    public function __construct(string $message = 'License has expired', ?int $status = null, $body = null, ?\Throwable $previous = null)
    {
        parent::__construct('expired', $message, $status, $body, [], $previous);
    }
}
