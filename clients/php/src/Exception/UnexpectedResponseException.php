<?php

namespace Licensing\Exception;

/** An answer that is not what the service sends: HTML from a proxy, a captive portal, truncated JSON. */
class UnexpectedResponseException extends UnavailableException
{
    public function __construct(string $message, ?int $status = null)
    {
        parent::__construct('bad_response', $message, $status);
    }
}
