<?php

namespace Licensing\Exception;

/** `License is suspended` (400). */
class LicenseSuspendedException extends LicenseException
{
    /** @param mixed $body */
    public function __construct(string $message = 'License is suspended', ?int $status = null, $body = null, ?\Throwable $previous = null)
    {
        parent::__construct('suspended', $message, $status, $body, [], $previous);
    }
}
