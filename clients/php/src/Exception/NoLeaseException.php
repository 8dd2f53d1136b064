<?php

namespace Licensing\Exception;

/** `Machine holds no live lease` (validate of a floating license): the machine holds no live lease. */
class NoLeaseException extends LicenseException
{
    /** @param mixed $body */
    public function __construct(string $message = 'Machine holds no live lease', ?int $status = null, $body = null, ?\Throwable $previous = null)
    {
        parent::__construct('no_lease', $message, $status, $body, [], $previous);
    }
}
