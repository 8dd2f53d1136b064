<?php

namespace Licensing\Exception;

/** `License seat limit reached` (400): every seat is taken by another domain. */
class SeatLimitReachedException extends LicenseException
{
    /** @param mixed $body */
    public function __construct(string $message = 'License seat limit reached', ?int $status = null, $body = null, ?\Throwable $previous = null)
    {
        parent::__construct('seat_limit', $message, $status, $body, [], $previous);
    }
}
