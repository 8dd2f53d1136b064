<?php

namespace Licensing\Exception;

/** `Invalid public_key` (404): unknown or replaced public key, a configuration error. */
class InvalidPublicKeyException extends LicenseException
{
    /** @param mixed $body */
    public function __construct(string $message = 'Invalid public_key', ?int $status = null, $body = null, ?\Throwable $previous = null)
    {
        parent::__construct('invalid_public_key', $message, $status, $body, [], $previous);
    }
}
