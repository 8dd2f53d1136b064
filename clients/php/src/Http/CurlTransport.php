<?php

namespace Licensing\Http;

use Licensing\Exception\NetworkException;
use Licensing\Exception\TimeoutException;

/** HTTP through ext-curl, with TLS verification always on and no redirects followed. */
final class CurlTransport implements Transport
{
    public static function available(): bool
    {
        return function_exists('curl_init');
    }

    /** A server that does not accept within 3 s is down or unreachable: the rest of the budget is for its answer. */
    public const CONNECT_TIMEOUT_MS = 3000;

    public function send(string $method, string $url, array $headers, ?string $body, float $timeout): Response
    {
        $handle = curl_init($url);
        if ($handle === false) {
            throw new NetworkException('cURL could not be initialised');
        }
        $received = [];
        $lines = [];
        foreach ($headers as $name => $value) {
            $lines[] = $name . ': ' . $value;
        }
        $lines[] = 'Expect:';
        $milliseconds = max(1, (int) ceil($timeout * 1000));
        $options = [
            CURLOPT_CUSTOMREQUEST => $method,
            CURLOPT_HTTPHEADER => $lines,
            CURLOPT_RETURNTRANSFER => true,
            CURLOPT_FOLLOWLOCATION => false,
            CURLOPT_TIMEOUT_MS => $milliseconds,
            CURLOPT_CONNECTTIMEOUT_MS => min($milliseconds, self::CONNECT_TIMEOUT_MS),
            // Sub-second timeouts without signals (the resolver would otherwise ignore them).
            CURLOPT_NOSIGNAL => true,
            CURLOPT_SSL_VERIFYPEER => true,
            CURLOPT_SSL_VERIFYHOST => 2,
            CURLOPT_ENCODING => '',
            CURLOPT_HEADERFUNCTION => static function ($curl, string $line) use (&$received): int {
                $parts = explode(':', $line, 2);
                if (count($parts) === 2) {
                    $name = strtolower(trim($parts[0]));
                    $value = trim($parts[1]);
                    $received[$name] = isset($received[$name]) ? $received[$name] . ', ' . $value : $value;
                } elseif (stripos($line, 'HTTP/') === 0) {
                    $received = []; // a new status line (after 100 Continue): start over
                }
                return strlen($line);
            },
        ];
        if (defined('CURLOPT_PROTOCOLS')) {
            $options[CURLOPT_PROTOCOLS] = CURLPROTO_HTTP | CURLPROTO_HTTPS;
        }
        if ($body !== null) {
            $options[CURLOPT_POSTFIELDS] = $body;
        }
        curl_setopt_array($handle, $options);
        $result = curl_exec($handle);
        $errno = curl_errno($handle);
        $error = curl_error($handle);
        $status = (int) curl_getinfo($handle, CURLINFO_RESPONSE_CODE);
        curl_close($handle);
        if ($errno === CURLE_OPERATION_TIMEDOUT) {
            throw new TimeoutException('No answer within ' . $timeout . ' s (' . preg_replace('/\?.*$/', '', $error) . ')');
        }
        if ($errno !== 0 || !is_string($result)) {
            throw new NetworkException('The licensing service could not be reached (' . ($error !== '' ? $error : 'cURL error ' . $errno) . ')');
        }
        return new Response($status, $received, $result);
    }
}
