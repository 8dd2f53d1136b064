<?php

namespace Licensing\Tests\Support;

/**
 * The local stack's management API, as a vendor's dashboard uses it: a new tenant per test case, products, licenses,
 * plans, releases. `LICENSING_BASE_URL` names the stack (the vitest runner sets it).
 */
final class Stack
{
    /** @var string */
    public $baseUrl;
    /** @var string */
    private $cookie = '';
    /** @var string */
    private $email = '';

    private function __construct(string $baseUrl)
    {
        $this->baseUrl = $baseUrl;
    }

    public static function baseUrl(): ?string
    {
        $url = getenv('LICENSING_BASE_URL');
        return is_string($url) && $url !== '' ? rtrim($url, '/') : null;
    }

    /** Registers a new developer (a tenant of its own). */
    public static function tenant(): self
    {
        $base = self::baseUrl();
        if ($base === null) {
            throw new \RuntimeException('LICENSING_BASE_URL is not set');
        }
        $stack = new self($base);
        $email = 'php-' . bin2hex(random_bytes(6)) . '@example.com';
        $stack->call('POST', '/api/auth/register', ['email' => $email, 'password' => 'correct horse battery', 'name' => 'PHP'], 201);
        $stack->email = $email;
        return $stack;
    }

    /**
     * Opens the verification link the stack e-mailed at registration (read from `GET /_local/mail`), as the vendor
     * would: connecting a payment provider needs the address verified (DECISIONS §20).
     */
    public function verifyAddress(): void
    {
        for ($attempt = 0; $attempt < 150; $attempt++) {
            $mail = json_decode((string) file_get_contents($this->baseUrl . '/_local/mail'), true);
            foreach (array_reverse($mail['emails'] ?? []) as $sent) {
                if (in_array($this->email, $sent['to'], true) && preg_match('~https?://\S+/api/auth/verify-email\?token=[a-z2-7]{32}~', $sent['text'], $link)) {
                    $this->call('GET', (string) parse_url($link[0], PHP_URL_PATH) . '?' . parse_url($link[0], PHP_URL_QUERY));
                    return;
                }
            }
            usleep(100000);
        }
        throw new \RuntimeException("No verification e-mail reached {$this->email}");
    }

    /**
     * @param array<string, mixed>|null $body
     * @return array<string, mixed>
     */
    public function call(string $method, string $path, ?array $body = null, ?int $expect = null, ?array $multipart = null): array
    {
        $handle = curl_init($this->baseUrl . $path);
        $headers = ['Origin: ' . $this->baseUrl];
        if ($this->cookie !== '') {
            $headers[] = 'Cookie: session=' . $this->cookie;
        }
        $options = [CURLOPT_CUSTOMREQUEST => $method, CURLOPT_RETURNTRANSFER => true, CURLOPT_HEADER => true, CURLOPT_TIMEOUT => 30];
        if ($multipart !== null) {
            $options[CURLOPT_POSTFIELDS] = $multipart;
        } elseif ($body !== null) {
            $headers[] = 'Content-Type: application/json';
            $options[CURLOPT_POSTFIELDS] = json_encode($body);
        }
        $options[CURLOPT_HTTPHEADER] = $headers;
        curl_setopt_array($handle, $options);
        $raw = (string) curl_exec($handle);
        $status = (int) curl_getinfo($handle, CURLINFO_RESPONSE_CODE);
        $headerSize = (int) curl_getinfo($handle, CURLINFO_HEADER_SIZE);
        curl_close($handle);
        $head = substr($raw, 0, $headerSize);
        $text = substr($raw, $headerSize);
        if (preg_match('/^set-cookie:\s*session=([^;]*)/mi', $head, $match)) {
            $this->cookie = $match[1];
        }
        if ($expect !== null && $status !== $expect) {
            throw new \RuntimeException("$method $path: expected $expect, got $status: $text");
        }
        $decoded = json_decode($text, true);
        return ['status' => $status, 'body' => is_array($decoded) ? $decoded : $text, 'headers' => $head];
    }

    /**
     * @param array<string, mixed> $fields
     * @return array<string, mixed>
     */
    public function product(array $fields = []): array
    {
        return $this->call('POST', '/api/products', array_merge(['name' => 'PHP Plugin ' . bin2hex(random_bytes(4)), 'productType' => 'plugin'], $fields), 201)['body'];
    }

    /**
     * @param array<string, mixed> $fields
     * @return array<string, mixed>
     */
    public function license(string $productId, array $fields = []): array
    {
        return $this->call('POST', '/api/licenses', array_merge(['productId' => $productId, 'customerEmail' => 'buyer@example.com', 'seats' => 2], $fields), 201)['body'];
    }

    public function suspend(string $licenseId): void
    {
        $this->call('PUT', '/api/licenses/' . $licenseId, ['status' => 'suspended'], 200);
    }

    public function revoke(string $licenseId): void
    {
        $this->call('POST', '/api/licenses/' . $licenseId . '/revoke', null, 200);
    }

    /**
     * Uploads a ZIP and publishes it as a release.
     *
     * @param array<string, mixed> $fields
     * @return array<string, mixed>
     */
    public function release(string $productId, string $version, array $fields = []): array
    {
        $zip = "PK\x03\x04" . str_repeat('x', 200);
        $path = tempnam(sys_get_temp_dir(), 'zip');
        file_put_contents($path, $zip);
        $upload = $this->call('POST', '/api/products/' . $productId . '/releases/upload', null, 201, [
            'version' => $version,
            'file' => new \CURLFile($path, 'application/zip', 'plugin.zip'),
        ])['body'];
        unlink($path);
        return $this->call('POST', '/api/products/' . $productId . '/releases', array_merge($upload, ['version' => $version], $fields), 201)['body'];
    }
}
