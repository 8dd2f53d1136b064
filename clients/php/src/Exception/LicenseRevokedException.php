<?php

namespace Licensing\Exception;

/** `License has been revoked` (400). */
class LicenseRevokedException extends LicenseException
{
    /** @param mixed $body */
    public function __construct(string $message = 'License has been revoked', ?int $status = null, $body = null, ?\Throwable $previous = null)
    {
        parent::__construct('revoked', $message, $status, $body, [], $previous);
    }
}
