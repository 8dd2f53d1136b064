<?php

namespace Licensing\Exception;

/** 429 after the retries the time budget allowed; `retryAfter()` is the service's `Retry-After` in seconds. */
class RateLimitedException extends UnavailableException
{
    /** @var int|null */
    private $retryAfter;

    /** @param mixed $body */
    public function __construct(string $message = 'Too many requests', ?int $retryAfter = null, $body = null)
    {
        parent::__construct('rate_limited', $message, 429, $body);
        $this->retryAfter = $retryAfter;
    }

    public function retryAfter(): ?int
    {
        return $this->retryAfter;
    }
}
