<?php

namespace Licensing\Tests;

use Licensing\Cache\FileStorage;
use Licensing\Cache\MemoryStorage;
use Licensing\Cache\ValidationCache;
use Licensing\Client;
use Licensing\Exception\LicenseExpiredException;
use Licensing\Exception\LicenseRevokedException;
use Licensing\Exception\NetworkException;
use Licensing\Exception\OfflineLicenseException;
use Licensing\Exception\ServerException;
use Licensing\Exception\SignatureException;
use Licensing\Http\Response;
use Licensing\Http\Transport;
use Licensing\Tests\Support\OfflineVectors;
use PHPUnit\Framework\TestCase;

/** The grace cache and the offline file fallback, with a scripted service and a clock the test moves. */
final class CacheTest extends TestCase
{
    private const KEY = 'ACME-AAAA-BBBB-CCCC-DDDD';
    private const PK = 'pk_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
    private const HOUR = 3600;

    /** @var object{next: callable|Response} */
    private $service;
    /** @var int */
    private $now;

    protected function setUp(): void
    {
        $this->now = strtotime('2026-03-01T12:00:00Z');
        $this->service = new class () implements Transport {
            /** @var callable|Response */
            public $next;

            public function send(string $method, string $url, array $headers, ?string $body, float $timeout): Response
            {
                $next = $this->next;
                if (is_callable($next)) {
                    return $next();
                }
                return $next;
            }
        };
        $this->answer(self::valid());
    }

    /** @param array<string, mixed> $license */
    private static function valid(array $license = []): Response
    {
        return new Response(200, ['content-type' => 'application/json'], (string) json_encode([
            'valid' => true,
            'license' => array_merge(['key' => self::KEY, 'status' => 'active', 'seats' => 2, 'activatedCount' => 1, 'expiresAt' => null], $license),
            'product' => ['id' => 'prd_aaaaaaaaaaaaaaaaaaaaaaaa', 'name' => 'Acme', 'slug' => 'acme'],
        ]));
    }

    private static function down(): Response
    {
        return new Response(503, ['content-type' => 'application/json'], '{"error":"Service temporarily unavailable"}');
    }

    /** @param callable|Response $next */
    private function answer($next): void
    {
        $this->service->next = $next;
    }

    private function unreachable(): void
    {
        $this->answer(static function (): Response {
            throw new NetworkException('connection refused');
        });
    }

    /** @param array<string, mixed> $options */
    private function client(array $options = []): Client
    {
        return new Client(array_merge([
            'base_url' => 'https://licenses.example.com',
            'public_key' => self::PK,
            'transport' => $this->service,
            'retries' => 0,
            'clock' => function (): int {
                return $this->now;
            },
        ], $options));
    }

    public function testStandsInWithTheLastGoodAnswerWhenTheServiceCannotBeReached(): void
    {
        $client = $this->client();
        $this->assertSame('service', $client->validate(self::KEY)->source);
        $this->answer(self::down());
        $this->now += 5 * self::HOUR;
        $cached = $client->validate(self::KEY);
        $this->assertTrue($cached->valid);
        $this->assertSame('cache', $cached->source);
        $this->assertSame(strtotime('2026-03-01T12:00:00Z'), $cached->checkedAt);
        $this->assertInstanceOf(ServerException::class, $cached->unavailable);
        $this->assertSame('acme', $cached->product['slug']);
        $this->unreachable();
        $this->assertSame('cache', $client->validate(self::KEY)->source);
    }

    public function testEndsTheGraceAfterTheGracePeriod(): void
    {
        $client = $this->client();
        $client->validate(self::KEY);
        $this->answer(self::down());
        $this->now += 71 * self::HOUR;
        $this->assertSame('cache', $client->validate(self::KEY)->source);
        $this->now += 2 * self::HOUR;
        $this->expectException(ServerException::class);
        $client->validate(self::KEY);
    }

    public function testNeverServesTheCacheAfterADefiniteInvalid(): void
    {
        $client = $this->client();
        $client->validate(self::KEY);
        $this->answer(new Response(400, ['content-type' => 'application/json'], '{"valid":false,"error":"License has been revoked"}'));
        $revoked = $client->validate(self::KEY);
        $this->assertFalse($revoked->valid);
        $this->assertInstanceOf(LicenseRevokedException::class, $revoked->error);
        $this->answer(self::down());
        $this->expectException(ServerException::class);
        $client->validate(self::KEY);
    }

    public function testRefusesTheGraceWhenTheClockWasTurnedBack(): void
    {
        $client = $this->client();
        $client->validate(self::KEY);
        $this->unreachable();
        $this->now += 10 * self::HOUR;
        $this->assertSame('cache', $client->validate(self::KEY)->source);
        $this->now -= 9 * self::HOUR;
        $this->expectException(NetworkException::class);
        $client->validate(self::KEY);
    }

    public function testDoesNotVouchForALicensePastItsExpiry(): void
    {
        $client = $this->client();
        $this->answer(self::valid(['expiresAt' => '2026-03-02T00:00:00.000Z']));
        $client->validate(self::KEY);
        $this->answer(self::down());
        $this->now += 6 * self::HOUR;
        $this->assertTrue($client->validate(self::KEY)->valid);
        $this->now += 12 * self::HOUR;
        $result = $client->validate(self::KEY);
        $this->assertFalse($result->valid);
        $this->assertSame('cache', $result->source);
        $this->assertInstanceOf(LicenseExpiredException::class, $result->error);
    }

    public function testForgetsTheKeyOnceThisSiteDeactivatedIt(): void
    {
        $client = $this->client();
        $client->validate(self::KEY);
        $this->answer(new Response(200, ['content-type' => 'application/json'], '{"success":true}'));
        $client->deactivate(self::KEY, 'example.com');
        $this->answer(self::down());
        $this->expectException(ServerException::class);
        $client->validate(self::KEY);
    }

    public function testIsOffWithCacheFalse(): void
    {
        $client = $this->client(['cache' => false]);
        $client->validate(self::KEY);
        $this->assertNull($client->cache());
        $this->answer(self::down());
        $this->expectException(ServerException::class);
        $client->validate(self::KEY);
    }

    public function testKeepsEntriesInFilesAcrossClients(): void
    {
        $directory = sys_get_temp_dir() . '/licensing-cache-' . bin2hex(random_bytes(4));
        $this->client(['cache' => new FileStorage($directory)])->validate(self::KEY);
        $files = glob($directory . '/*.json');
        $this->assertCount(1, $files);
        $this->answer(self::down());
        $restarted = $this->client(['cache' => new FileStorage($directory), 'grace_period' => 3600]);
        $this->assertSame('cache', $restarted->validate(self::KEY)->source);
        $this->now += 2 * self::HOUR;
        try {
            $restarted->validate(self::KEY);
            $this->fail('the grace period of one hour has passed');
        } catch (ServerException $e) {
        }
        array_map('unlink', (array) glob($directory . '/*'));
        rmdir($directory);
    }

    public function testIgnoresAnUnreadableEntry(): void
    {
        $storage = new MemoryStorage();
        $storage->set('licensing:' . self::PK . ':' . self::KEY, '{not json');
        $client = $this->client(['cache' => new ValidationCache($storage)]);
        $this->answer(self::down());
        $this->expectException(ServerException::class);
        $client->validate(self::KEY);
    }

    /** A client with the offline fallback on a file the service's formatter signed (a test vector), at the vector's time. */
    private function offlineClient(callable $load, ?ValidationCache $cache = null): Client
    {
        $vector = OfflineVectors::named('valid');
        $this->now = strtotime($vector['now']);
        return $this->client(['signing' => ['public_keys' => $vector['publicKeys']], 'offline' => ['load' => $load], 'cache' => $cache]);
    }

    public function testFallsBackToAValidOfflineFileWhenTheServiceCannotBeReached(): void
    {
        $stored = OfflineVectors::named('valid')['licenseFile'];
        $client = $this->offlineClient(function () use (&$stored) {
            return $stored;
        });
        $this->unreachable();
        $result = $client->validate(OfflineVectors::LICENSE_KEY, ['domain' => 'https://www.shop.example.com/']);
        $this->assertTrue($result->valid);
        $this->assertSame('offline', $result->source);
        $this->assertSame(strtotime('2026-03-01T12:00:00Z'), $result->checkedAt);
        $this->assertInstanceOf(NetworkException::class, $result->unavailable);

        // Another site, no site, another key, a forged file: the original error.
        foreach ([[OfflineVectors::LICENSE_KEY, ['domain' => 'other.com']], [OfflineVectors::LICENSE_KEY, []], [self::KEY, ['domain' => 'shop.example.com']]] as [$key, $options]) {
            try {
                $client->validate($key, $options);
                $this->fail('the file does not cover this');
            } catch (NetworkException $e) {
            }
        }
        $stored = OfflineVectors::named('tampered-payload')['licenseFile'];
        $this->expectException(NetworkException::class);
        $client->validate(OfflineVectors::LICENSE_KEY, ['domain' => 'shop.example.com']);
    }

    public function testRefusesAFilePastItsValidUntil(): void
    {
        $client = $this->offlineClient(static function () {
            return OfflineVectors::named('valid')['licenseFile'];
        });
        $this->now = strtotime('2026-03-31T12:00:00Z');
        $this->answer(self::down());
        try {
            $client->validate(OfflineVectors::LICENSE_KEY, ['domain' => 'shop.example.com']);
            $this->fail('expired file');
        } catch (ServerException $e) {
        }
        try {
            $client->validateOffline(OfflineVectors::LICENSE_KEY, ['domain' => 'shop.example.com']);
            $this->fail('expired file');
        } catch (OfflineLicenseException $e) {
            $this->assertSame('expired', $e->reason());
            $this->assertSame('The offline license file has expired', $e->getMessage());
        }
    }

    public function testNeverTakesAnUnsignedRefusalForTheServicesWord(): void
    {
        $client = $this->offlineClient(static function () {
            return OfflineVectors::named('valid')['licenseFile'];
        });
        $this->answer(new Response(400, ['content-type' => 'application/json'], '{"valid":false,"error":"License has been revoked"}'));
        $this->expectException(SignatureException::class);
        $client->validate(OfflineVectors::LICENSE_KEY, ['domain' => 'shop.example.com']);
    }

    public function testPrefersTheCacheToTheFile(): void
    {
        $cache = new ValidationCache();
        $client = $this->offlineClient(static function () {
            return OfflineVectors::named('valid')['licenseFile'];
        }, $cache);
        $cache->store(self::PK, OfflineVectors::LICENSE_KEY, ['key' => OfflineVectors::LICENSE_KEY, 'status' => 'active', 'seats' => 3, 'expiresAt' => null], ['id' => 'prd_x', 'name' => 'Acme', 'slug' => 'acme-seo'], $this->now);
        $this->unreachable();
        $this->assertSame('cache', $client->validate(OfflineVectors::LICENSE_KEY, ['domain' => 'shop.example.com'])->source);
        $cache->forget(self::PK, OfflineVectors::LICENSE_KEY);
        $this->assertSame('offline', $client->validate(OfflineVectors::LICENSE_KEY, ['domain' => 'shop.example.com'])->source);
    }
}
