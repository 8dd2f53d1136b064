<?php

namespace Licensing\WordPress;

use Licensing\Exception\NetworkException;
use Licensing\Exception\TimeoutException;
use Licensing\Http\Response;
use Licensing\Http\Transport;

/**
 * HTTP through WordPress's own API (`wp_remote_request`): the site's proxy settings, CA bundle and `pre_http_request`
 * filters apply. TLS verification stays on, whatever the site says (`sslverify` is never turned off here). With cURL
 * (WordPress's usual transport) connecting may take at most 3 s of the budget; WordPress's API sets no such limit.
 */
final class WpTransport implements Transport
{
    public const CONNECT_TIMEOUT = 3.0;

    /** The request argument that marks this library's requests for `limitConnect`. */
    private const CONNECT_ARG = 'licensing_connect_timeout';

    /**
     * @internal `http_api_curl`: the connect timeout of this library's requests (WordPress's API has no argument for it).
     *
     * @param mixed $handle
     * @param array<string, mixed> $args
     */
    public static function limitConnect($handle, $args = []): void
    {
        if (is_array($args) && isset($args[self::CONNECT_ARG]) && $handle) {
            curl_setopt($handle, CURLOPT_CONNECTTIMEOUT_MS, (int) ceil((float) $args[self::CONNECT_ARG] * 1000));
        }
    }

    public function send(string $method, string $url, array $headers, ?string $body, float $timeout): Response
    {
        $args = [
            'method' => $method,
            'headers' => $headers,
            'timeout' => $timeout,
            'redirection' => 0,
            'sslverify' => true,
            'user-agent' => isset($headers['user-agent']) ? $headers['user-agent'] : 'licensing-php',
            self::CONNECT_ARG => min($timeout, self::CONNECT_TIMEOUT),
        ];
        if (!has_action('http_api_curl', [self::class, 'limitConnect'])) {
            add_action('http_api_curl', [self::class, 'limitConnect'], 10, 2);
        }
        if ($body !== null) {
            $args['body'] = $body;
        }
        $response = wp_remote_request($url, $args);
        if (is_wp_error($response)) {
            $message = $response->get_error_message();
            if (stripos($message, 'timed out') !== false || stripos($message, 'cURL error 28') !== false) {
                throw new TimeoutException('No answer within ' . $timeout . ' s');
            }
            // WordPress's message may quote the URL, and with it a license key: keep only what precedes it.
            throw new NetworkException('The licensing service could not be reached (' . preg_replace('#\s*(for )?https?://\S+#', '', $message) . ')');
        }
        $received = [];
        foreach (wp_remote_retrieve_headers($response) as $name => $value) {
            $received[strtolower((string) $name)] = is_array($value) ? implode(', ', $value) : (string) $value;
        }
        return new Response((int) wp_remote_retrieve_response_code($response), $received, (string) wp_remote_retrieve_body($response));
    }
}
