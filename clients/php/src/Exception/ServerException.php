<?php

namespace Licensing\Exception;

/** 5xx after the retries the time budget allowed. */
class ServerException extends UnavailableException
{
    /** @var float|null */
    private $retryAfter;

    /** @param mixed $body */
    public function __construct(string $message, int $status, $body = null, ?float $retryAfter = null)
    {
        parent::__construct('server', $message, $status, $body);
        $this->retryAfter = $retryAfter;
    }

    /** Seconds the service asked to wait (`Retry-After` of a 503), if it did. */
    public function retryAfter(): ?float
    {
        return $this->retryAfter;
    }
}
