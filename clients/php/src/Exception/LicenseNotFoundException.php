<?php

namespace Licensing\Exception;

/** `License key not found` (404): unknown, regenerated, or another product's key. */
class LicenseNotFoundException extends LicenseException
{
    /** @param mixed $body */
    public function __construct(string $message = 'License key not found', ?int $status = null, $body = null, ?\Throwable $previous = null)
    {
        parent::__construct('not_found', $message, $status, $body, [], $previous);
    }
}
