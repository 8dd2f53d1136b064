<?php

namespace Licensing\Exception;

/** Any other 4xx: the request itself is wrong (`<field> is required`, `domain is not a valid domain or URL`, …). */
class InvalidRequestException extends LicensingException
{
    /**
     * @param mixed $body
     * @param array<int, array{path: string, message: string}> $details
     */
    public function __construct(string $message, ?int $status = null, $body = null, array $details = [])
    {
        parent::__construct('invalid_request', $message, $status, $body, $details);
    }
}
