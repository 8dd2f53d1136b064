<?php

namespace Licensing\Exception;

/** `Activation not found` (400): no active activation of this license for that domain or id. */
class ActivationNotFoundException extends LicenseException
{
    /** @param mixed $body */
    public function __construct(string $message = 'Activation not found', ?int $status = null, $body = null, ?\Throwable $previous = null)
    {
        parent::__construct('activation_not_found', $message, $status, $body, [], $previous);
    }
}
