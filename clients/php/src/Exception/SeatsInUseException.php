<?php

namespace Licensing\Exception;

/** `All seats are in use` (409): every seat of a floating license is leased; try again later. */
class SeatsInUseException extends LicenseException
{
    /** @param mixed $body */
    public function __construct(string $message = 'All seats are in use', ?int $status = null, $body = null, ?\Throwable $previous = null)
    {
        parent::__construct('seats_in_use', $message, $status, $body, [], $previous);
    }
}
