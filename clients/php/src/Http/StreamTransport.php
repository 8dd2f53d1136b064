<?php

namespace Licensing\Http;

use Licensing\Exception\NetworkException;
use Licensing\Exception\TimeoutException;

/** HTTP through PHP's own stream wrapper, for hosts without ext-curl. TLS peers are verified; no redirects. */
final class StreamTransport implements Transport
{
    public function send(string $method, string $url, array $headers, ?string $body, float $timeout): Response
    {
        $lines = [];
        foreach ($headers as $name => $value) {
            $lines[] = $name . ': ' . $value;
        }
        $lines[] = 'Connection: close';
        $context = stream_context_create([
            'http' => [
                'method' => $method,
                'header' => implode("\r\n", $lines),
                'content' => $body === null ? '' : $body,
                'timeout' => $timeout,
                'ignore_errors' => true,
                'follow_location' => 0,
                'max_redirects' => 1,
                'protocol_version' => 1.1,
            ],
            'ssl' => ['verify_peer' => true, 'verify_peer_name' => true],
        ]);
        $deadline = microtime(true) + $timeout;
        set_error_handler(static function (): bool {
            return true; // the failure is reported below, as an exception
        });
        try {
            $stream = fopen($url, 'rb', false, $context);
            if ($stream === false) {
                $last = error_get_last();
                if (microtime(true) >= $deadline - 0.01) {
                    throw new TimeoutException('No answer within ' . $timeout . ' s');
                }
                // PHP's warning quotes the URL (and with it any license key): keep only the reason after it.
                throw new NetworkException('The licensing service could not be reached' . ($last ? ' (' . preg_replace('#^.*?\):\s*#', '', $last['message']) . ')' : ''));
            }
            $meta = stream_get_meta_data($stream);
            $raw = isset($meta['wrapper_data']) && is_array($meta['wrapper_data']) ? $meta['wrapper_data'] : [];
            $content = '';
            while (!feof($stream)) {
                $remaining = $deadline - microtime(true);
                if ($remaining <= 0) {
                    fclose($stream);
                    throw new TimeoutException('No answer within ' . $timeout . ' s');
                }
                stream_set_timeout($stream, (int) floor($remaining), (int) (($remaining - floor($remaining)) * 1000000));
                $chunk = fread($stream, 65536);
                $info = stream_get_meta_data($stream);
                if (!empty($info['timed_out'])) {
                    fclose($stream);
                    throw new TimeoutException('No answer within ' . $timeout . ' s');
                }
                if ($chunk === false) {
                    break;
                }
                $content .= $chunk;
            }
            fclose($stream);
        } finally {
            restore_error_handler();
        }
        $status = 0;
        $received = [];
        foreach ($raw as $line) {
            if (preg_match('#^HTTP/\S+\s+(\d{3})#', $line, $match)) {
                $status = (int) $match[1];
                $received = [];
                continue;
            }
            $parts = explode(':', $line, 2);
            if (count($parts) === 2) {
                $name = strtolower(trim($parts[0]));
                $value = trim($parts[1]);
                $received[$name] = isset($received[$name]) ? $received[$name] . ', ' . $value : $value;
            }
        }
        if ($status === 0) {
            throw new NetworkException('The licensing service sent no HTTP answer');
        }
        if (isset($received['content-encoding']) && $received['content-encoding'] === 'gzip' && function_exists('gzdecode')) {
            $decoded = gzdecode($content);
            $content = $decoded === false ? $content : $decoded;
        }
        return new Response($status, $received, $content);
    }
}
