<?php

namespace Licensing\Exception;

/** No complete answer within the call's time budget (`timeout`). */
class TimeoutException extends NetworkException
{
    public function __construct(string $message = 'The licensing service did not answer in time', ?\Throwable $previous = null)
    {
        parent::__construct($message, $previous, 'timeout');
    }
}
