<?php

namespace Licensing\Tests;

use Licensing\Client;
use Licensing\Exception\InvalidRequestException;
use Licensing\Exception\NetworkException;
use Licensing\Exception\RateLimitedException;
use Licensing\Exception\ServerException;
use Licensing\Exception\SignatureException;
use Licensing\Exception\TimeoutException;
use Licensing\Exception\UnexpectedResponseException;
use Licensing\Http\CurlTransport;
use Licensing\Http\Response;
use Licensing\Http\StreamTransport;
use Licensing\Http\Transport;
use Licensing\Tests\Support\ScriptServer;
use Licensing\Verifier\ResponseVerifier;
use PHPUnit\Framework\TestCase;

/** Timeouts, retries and answer checks against a local server that stalls, fails or rate limits; with both transports. */
final class TransportTest extends TestCase
{
    private const KEY = 'ACME-AAAA-BBBB-CCCC-DDDD';
    private const PK = 'pk_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';

    /** @var ScriptServer */
    private static $server;

    public static function setUpBeforeClass(): void
    {
        self::$server = new ScriptServer();
    }

    public static function tearDownAfterClass(): void
    {
        self::$server->stop();
    }

    /** @return array<string, array{Transport}> */
    public function transports(): array
    {
        return ['curl' => [new CurlTransport()], 'streams' => [new StreamTransport()]];
    }

    /** @param array<string, mixed> $options */
    private function client(string $baseUrl, Transport $transport, array $options = []): Client
    {
        return new Client(array_merge(['base_url' => $baseUrl, 'public_key' => self::PK, 'transport' => $transport, 'cache' => false, 'retry_base_ms' => 20], $options));
    }

    /** @return array{float, mixed} */
    private static function timed(callable $call): array
    {
        $start = microtime(true);
        try {
            $call();
            $error = null;
        } catch (\Throwable $e) {
            $error = $e;
        }
        return [microtime(true) - $start, $error];
    }

    /** @dataProvider transports */
    public function testEndsACallToAServiceThatNeverAnswersWithinTheTimeout(Transport $transport): void
    {
        $url = self::$server->scenario('stall');
        [$seconds, $error] = self::timed(function () use ($url, $transport) {
            $this->client($url, $transport, ['timeout' => 0.8])->activate(self::KEY, 'example.com');
        });
        $this->assertInstanceOf(TimeoutException::class, $error);
        $this->assertInstanceOf(NetworkException::class, $error);
        $this->assertSame('timeout', $error->errorCode());
        $this->assertGreaterThanOrEqual(0.7, $seconds);
        $this->assertLessThan(1.8, $seconds);
    }

    /** @dataProvider transports */
    public function testTimesOutABodyThatStalls(Transport $transport): void
    {
        $url = self::$server->scenario('stallbody');
        [$seconds, $error] = self::timed(function () use ($url, $transport) {
            $this->client($url, $transport, ['timeout' => 0.8])->validate(self::KEY);
        });
        $this->assertInstanceOf(TimeoutException::class, $error);
        $this->assertLessThan(1.8, $seconds);
    }

    /** @dataProvider transports */
    public function testNeverPutsTheQueryALicenseKeyInAnErrorMessage(Transport $transport): void
    {
        foreach (['stall', 'html502'] as $scenario) {
            $url = self::$server->scenario($scenario);
            [, $error] = self::timed(function () use ($url, $transport) {
                $this->client($url, $transport, ['timeout' => 0.5, 'retries' => 0])->checkForUpdate(self::KEY, '1.0.0', ['slug' => 'acme']);
            });
            $this->assertInstanceOf(\Licensing\Exception\UnavailableException::class, $error);
            $this->assertStringNotContainsString(self::KEY, $error->getMessage());
            $this->assertStringContainsString('/v1/wp/update-check', $error->getMessage());
        }
        $refused = 'http://127.0.0.1:' . ScriptServer::freePort();
        [, $error] = self::timed(function () use ($refused, $transport) {
            $this->client($refused, $transport, ['retries' => 0])->checkForUpdate(self::KEY, '1.0.0', ['slug' => 'acme']);
        });
        $this->assertInstanceOf(NetworkException::class, $error);
        $this->assertStringNotContainsString(self::KEY, $error->getMessage());
    }

    public function testHasAFiveSecondBudgetByDefault(): void
    {
        $url = self::$server->scenario('stall');
        [$seconds, $error] = self::timed(function () use ($url) {
            (new Client(['base_url' => $url, 'public_key' => self::PK, 'cache' => false]))->plans();
        });
        $this->assertInstanceOf(TimeoutException::class, $error);
        $this->assertGreaterThanOrEqual(4.9, $seconds);
        $this->assertLessThan(6.0, $seconds);
    }

    /** @dataProvider transports */
    public function testRetriesA503AndSucceeds(Transport $transport): void
    {
        $url = self::$server->scenario('flaky');
        $this->assertSame([], $this->client($url, $transport)->plans());
        $this->assertCount(2, self::$server->log($url));
    }

    /** @dataProvider transports */
    public function testGivesUpWithAServerErrorCarryingTheStatusOfAnHtml502(Transport $transport): void
    {
        $url = self::$server->scenario('html502');
        [, $error] = self::timed(function () use ($url, $transport) {
            $this->client($url, $transport, ['retries' => 2])->plans();
        });
        $this->assertInstanceOf(ServerException::class, $error);
        $this->assertSame(502, $error->status());
        $this->assertCount(3, self::$server->log($url));
    }

    /** @dataProvider transports */
    public function testHonoursRetryAfterOnA429(Transport $transport): void
    {
        $url = self::$server->scenario('ratelimited');
        $this->client($url, $transport)->plans();
        $log = self::$server->log($url);
        $this->assertCount(2, $log);
        $this->assertGreaterThanOrEqual(0.99, $log[1]['at'] - $log[0]['at']);
    }

    /** @dataProvider transports */
    public function testDoesNotWaitPastTheBudgetForALongRetryAfter(Transport $transport): void
    {
        $url = self::$server->scenario('ratelimitlong');
        [$seconds, $error] = self::timed(function () use ($url, $transport) {
            $this->client($url, $transport)->validate(self::KEY);
        });
        $this->assertInstanceOf(RateLimitedException::class, $error);
        $this->assertSame(30, $error->retryAfter());
        $this->assertSame(429, $error->status());
        $this->assertCount(1, self::$server->log($url));
        $this->assertLessThan(1.0, $seconds);
    }

    /** @dataProvider transports */
    public function testFailsARefusedConnectionAsANetworkErrorFast(Transport $transport): void
    {
        $url = 'http://127.0.0.1:' . ScriptServer::freePort();
        [$seconds, $error] = self::timed(function () use ($url, $transport) {
            $this->client($url, $transport)->activate(self::KEY, 'example.com');
        });
        $this->assertInstanceOf(NetworkException::class, $error);
        $this->assertNotInstanceOf(TimeoutException::class, $error);
        $this->assertSame('network', $error->errorCode());
        $this->assertLessThan(1.5, $seconds);
    }

    /** @dataProvider transports */
    public function testRefusesA2xxThatIsNotJson(Transport $transport): void
    {
        $url = self::$server->scenario('html200');
        [, $error] = self::timed(function () use ($url, $transport) {
            $this->client($url, $transport)->plans();
        });
        $this->assertInstanceOf(UnexpectedResponseException::class, $error);
        $this->assertCount(1, self::$server->log($url));
    }

    /** @dataProvider transports */
    public function testSendsOneIdempotencyKeyPerLogicalCallTheSameOnItsRetries(Transport $transport): void
    {
        $first = self::$server->scenario('flaky');
        $this->client($first, $transport)->activate(self::KEY, 'example.com');
        $second = self::$server->scenario('flaky');
        $this->client($second, $transport)->deactivate(self::KEY, 'example.com');
        $a = self::$server->log($first);
        $b = self::$server->log($second);
        $this->assertCount(2, $a);
        $this->assertMatchesRegularExpression('/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/', $a[0]['headers']['idempotency-key']);
        $this->assertSame($a[0]['headers']['idempotency-key'], $a[1]['headers']['idempotency-key']);
        $this->assertSame($b[0]['headers']['idempotency-key'], $b[1]['headers']['idempotency-key']);
        $this->assertNotSame($a[0]['headers']['idempotency-key'], $b[0]['headers']['idempotency-key']);
        $this->assertSame('application/json', $a[0]['headers']['content-type']);
        $this->assertSame(['public_key' => self::PK, 'license_key' => self::KEY, 'domain' => 'example.com'], json_decode($a[0]['body'], true));

        $read = self::$server->scenario('ok');
        $this->client($read, $transport)->validate(self::KEY);
        $this->assertArrayNotHasKey('idempotency-key', self::$server->log($read)[0]['headers']);
    }

    /** @dataProvider transports */
    public function testSendsOneSignatureNoncePerLogicalCallOnSignedRoutesTheSameOnItsRetries(Transport $transport): void
    {
        $reads = self::$server->scenario('flaky');
        $this->client($reads, $transport)->validate(self::KEY);
        $this->client($reads, $transport)->validate(self::KEY);
        $write = self::$server->scenario('flaky');
        $this->client($write, $transport)->activate(self::KEY, 'example.com');
        $unsigned = self::$server->scenario('ok');
        $this->client($unsigned, $transport)->plans();

        $nonces = array_map(static function (array $request): ?string {
            return $request['headers']['signature-nonce'] ?? null;
        }, self::$server->log($reads));
        $this->assertCount(3, $nonces);
        $this->assertMatchesRegularExpression('/^[A-Za-z0-9_-]{22}$/', (string) $nonces[0]);
        $this->assertSame($nonces[0], $nonces[1]);
        $this->assertNotSame($nonces[0], $nonces[2]);
        $activate = self::$server->log($write);
        $this->assertSame($activate[0]['headers']['idempotency-key'], $activate[0]['headers']['signature-nonce']);
        $this->assertSame($activate[0]['headers']['signature-nonce'], $activate[1]['headers']['signature-nonce']);
        $this->assertArrayNotHasKey('signature-nonce', self::$server->log($unsigned)[0]['headers']);
    }

    public function testNeverRetriesA4xx(): void
    {
        $calls = 0;
        $transport = new class ($calls) implements Transport {
            /** @var int */
            public $calls = 0;

            public function __construct(int $calls)
            {
                $this->calls = $calls;
            }

            public function send(string $method, string $url, array $headers, ?string $body, float $timeout): Response
            {
                $this->calls++;
                return new Response(400, ['content-type' => 'application/json'], '{"error":"domain is required"}');
            }
        };
        $client = new Client(['base_url' => 'https://licenses.example.com', 'public_key' => self::PK, 'transport' => $transport]);
        try {
            $client->activate(self::KEY, '');
            $this->fail('expected an exception');
        } catch (InvalidRequestException $e) {
            $this->assertSame('domain is required', $e->getMessage());
            $this->assertSame(400, $e->status());
        }
        $this->assertSame(1, $transport->calls);
    }

    public function testAVerifierSeesTheRawAnswerAndItsRefusalIsASignatureException(): void
    {
        $url = self::$server->scenario('ok');
        $verifier = new class () implements ResponseVerifier {
            /** @var array<int, array{array<string, mixed>, Response}> */
            public $seen = [];
            /** @var bool */
            public $refuse = false;

            public function verify(array $request, Response $response): void
            {
                $this->seen[] = [$request, $response];
                if ($this->refuse) {
                    throw new \RuntimeException('no Signature header');
                }
            }
        };
        $client = new Client(['base_url' => $url, 'public_key' => self::PK, 'verifier' => $verifier]);
        $this->assertTrue($client->validate(self::KEY)->valid);
        [$request, $response] = $verifier->seen[0];
        $this->assertSame('POST', $request['method']);
        $this->assertSame($url . '/public/v1/licenses/validate', $request['url']);
        $this->assertStringStartsWith('{"valid":true', $response->body);
        $verifier->refuse = true;
        try {
            $client->validate(self::KEY);
            $this->fail('expected a SignatureException');
        } catch (SignatureException $e) {
            $this->assertStringContainsString('no Signature header', $e->getMessage());
        }
        $this->assertCount(2, self::$server->log($url));
    }

    public function testSurfacesEnvironmentAndSendsIt(): void
    {
        $transport = new class () implements Transport {
            /** @var array<int, string|null> */
            public $bodies = [];

            public function send(string $method, string $url, array $headers, ?string $body, float $timeout): Response
            {
                $this->bodies[] = $body;
                return new Response(200, ['content-type' => 'application/json; charset=utf-8'], '{"success":true,"activation_id":"act_aaaaaaaaaaaaaaaaaaaaaaaa","activated_at":"2026-01-01T00:00:00.000Z","environment":"staging"}');
            }
        };
        $client = new Client(['base_url' => 'https://licenses.example.com/', 'public_key' => self::PK, 'transport' => $transport, 'version' => '2.0.0', 'product_slug' => 'acme']);
        $result = $client->activate(self::KEY, 'staging.example.com', ['environment' => 'staging']);
        $this->assertSame('staging', $result['environment']);
        $this->assertSame(
            ['public_key' => self::PK, 'license_key' => self::KEY, 'domain' => 'staging.example.com', 'product_slug' => 'acme', 'version' => '2.0.0', 'environment' => 'staging'],
            json_decode((string) $transport->bodies[0], true)
        );
    }

    public function testParsesRetryAfterAndTheCheckoutReturn(): void
    {
        $this->assertSame(2.0, Client::retryAfter('2'));
        $this->assertNull(Client::retryAfter(null));
        $date = Client::retryAfter(gmdate('D, d M Y H:i:s', time() + 3) . ' GMT');
        $this->assertGreaterThan(1.0, $date);
        $this->assertSame(['status' => 'activated', 'license_key' => 'K-1'], Client::parseCheckoutReturn(['svc_activate' => 'K-1']));
        $this->assertSame(['status' => 'pending'], Client::parseCheckoutReturn(['svc_pending' => '1']));
        $this->assertSame(['status' => 'activated', 'license_key' => 'K-2'], Client::parseCheckoutReturn(['key' => 'K-2'], 'key'));
        $this->assertNull(Client::parseCheckoutReturn([]));
        $this->assertSame('example.com', Client::normalizeDomain('https://WWW.Example.com:8080/x'));
    }
}
