<?php

namespace Licensing\Http;

use Licensing\Exception\NetworkException;
use Licensing\Exception\TimeoutException;

/**
 * Sends one HTTP request. Implementations: CurlTransport (the default when ext-curl is loaded), StreamTransport
 * (PHP's own HTTP streams), WordPress\WpTransport (WordPress's HTTP API). Write your own to use another client.
 */
interface Transport
{
    /**
     * @param array<string, string> $headers
     * @param float $timeout Seconds for the whole request, connection included.
     * @throws TimeoutException when no complete answer arrived within $timeout
     * @throws NetworkException when there was no answer at all
     */
    public function send(string $method, string $url, array $headers, ?string $body, float $timeout): Response;
}
