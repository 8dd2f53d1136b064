<?php

namespace Licensing\Exception;

/** No answer: DNS, refused or reset connection, TLS. */
class NetworkException extends UnavailableException
{
    public function __construct(string $message = 'The licensing service could not be reached', ?\Throwable $previous = null, string $errorCode = 'network')
    {
        parent::__construct($errorCode, $message, null, null, [], $previous);
    }
}
