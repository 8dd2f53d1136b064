<?php

namespace Licensing\Exception;

/** `Lease not found` (404): the lease expired or was released; take a new one. */
class LeaseNotFoundException extends LicenseException
{
    /** @param mixed $body */
    public function __construct(string $message = 'Lease not found', ?int $status = null, $body = null, ?\Throwable $previous = null)
    {
        parent::__construct('lease_not_found', $message, $status, $body, [], $previous);
    }
}
