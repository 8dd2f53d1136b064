<?php

namespace Licensing\Exception;

/** A response the configured verifier refused. Never retried, never served from the cache. */
class SignatureException extends LicensingException
{
    public function __construct(string $message = 'The response signature is invalid', ?int $status = null, ?\Throwable $previous = null)
    {
        parent::__construct('signature', $message, $status, null, [], $previous);
    }
}
