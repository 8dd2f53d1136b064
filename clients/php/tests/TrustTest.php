<?php

namespace Licensing\Tests;

use Licensing\Cache\MemoryStorage;
use Licensing\Client;
use Licensing\Exception\ActivationNotFoundException;
use Licensing\Exception\InvalidRequestException;
use Licensing\Exception\NetworkException;
use Licensing\Exception\OfflineLicenseException;
use Licensing\Exception\ServerException;
use Licensing\Exception\SignatureException;
use Licensing\Tests\Support\ScriptServer;
use Licensing\Tests\Support\Stack;
use Licensing\Tests\Support\Thrown;
use PHPUnit\Framework\TestCase;

/**
 * The PHP client's trust features against the local stack, through HTTP: signed answers verified with pinned and
 * fetched keys, offline license files, staging sites and idempotent retries. The script server's forward* scenarios
 * stand in front of the real service as a lossy link or a man in the middle.
 */
final class TrustTest extends TestCase
{
    /** @var ScriptServer */
    private static $server;

    public static function setUpBeforeClass(): void
    {
        if (Stack::baseUrl() !== null) {
            self::$server = new ScriptServer();
        }
    }

    public static function tearDownAfterClass(): void
    {
        if (self::$server !== null) {
            self::$server->stop();
        }
    }

    protected function setUp(): void
    {
        if (Stack::baseUrl() === null) {
            $this->markTestSkipped('LICENSING_BASE_URL is not set (run through vitest: npx vitest run --project integration clients/php)');
        }
    }

    /** @return array{Stack, array<string, mixed>, array<string, mixed>, array<int, array<string, mixed>>} a vendor, its product, a license and the pinned keys */
    private static function vendor(int $seats = 2): array
    {
        $stack = Stack::tenant();
        $product = $stack->product();
        return [$stack, $product, $stack->license($product['id'], ['seats' => $seats]), self::pinnedKeys($stack, $product)];
    }

    /**
     * The product's keys as its vendor copies them from the dashboard (the product view).
     *
     * @param array<string, mixed> $product
     * @return array<int, array<string, mixed>>
     */
    private static function pinnedKeys(Stack $stack, array $product): array
    {
        return $stack->call('GET', '/api/products/' . $product['id'], null, 200)['body']['signingKeys'];
    }

    /**
     * @param array<string, mixed> $product
     * @param array<string, mixed> $options
     */
    private static function client(array $product, array $options = []): Client
    {
        return new Client(array_merge(['base_url' => Stack::baseUrl(), 'public_key' => $product['public_key'], 'product_slug' => $product['slug'], 'retry_base_ms' => 5], $options));
    }

    public function testVerifiesEverySignedCallWithThePinnedKeysEachWithItsOwnNonce(): void
    {
        [$stack, $product, $license, $keys] = self::vendor();
        $stack->release($product['id'], '1.1.0');
        $url = self::$server->scenario('forward');
        $client = self::client($product, ['base_url' => $url, 'signing' => ['public_keys' => $keys]]);
        $key = $license['licenseKey'];

        $this->assertTrue($client->validate($key)->valid);
        $activation = $client->activate($key, 'shop.example.com');
        $this->assertSame(['activated' => true, 'activation_id' => $activation['activation_id']], $client->check($key, 'shop.example.com'));
        $this->assertSame('1.1.0', $client->checkForUpdate($key, '1.0.0')['latest_version']);
        $this->assertSame($keys[0]['keyId'], $client->fetchOfflineLicense($key, 'shop.example.com')['key_id']);
        $client->deactivate($key, 'shop.example.com');
        // Signed refusals are verified and typed; a refusal of the request itself is not signed by design and passes.
        $this->assertInstanceOf(ActivationNotFoundException::class, Thrown::by(function () use ($client, $key) {
            $client->deactivate($key, 'shop.example.com');
        }));
        $this->assertInstanceOf(InvalidRequestException::class, Thrown::by(function () use ($client, $key) {
            $client->activate($key, ' ');
        }));

        $log = self::$server->log($url);
        $nonces = array_column(array_column($log, 'headers'), 'signature-nonce');
        $this->assertCount(count($log), array_unique($nonces));
        foreach (array_slice($log, 0, -1) as $exchange) {
            $this->assertStringContainsString('nonce="' . $exchange['headers']['signature-nonce'] . '"', $exchange['upstream']['headers']['signature-input']);
        }
    }

    public function testRefusesAChangedBodyAMissingSignatureAndAnotherProductsKey(): void
    {
        [$stack, $product, $license, $keys] = self::vendor();
        foreach (['forwardtamper', 'forwardunsigned'] as $attack) {
            $url = self::$server->scenario($attack);
            $client = self::client($product, ['base_url' => $url, 'signing' => ['public_keys' => $keys]]);
            $this->assertInstanceOf(SignatureException::class, Thrown::by(function () use ($client, $license) {
                $client->validate($license['licenseKey']);
            }), $attack);
            $this->assertCount(1, self::$server->log($url), 'never retried');
        }
        $fooled = self::client($product, ['signing' => ['public_keys' => self::pinnedKeys($stack, $stack->product())]]);
        $this->assertStringContainsString('unknown key', Thrown::by(function () use ($fooled, $license) {
            $fooled->validate($license['licenseKey']);
        })->getMessage());
    }

    public function testRefusesTheAnswersARelayGotWithItsOwnKeyOrSiteThoughTheServiceSignedThem(): void
    {
        [$stack, $product, $license, $keys] = self::vendor();
        // The relay's own paid license, activated on its own site: every answer it gets from the service is genuine.
        $relayKey = $stack->license($product['id'])['licenseKey'];
        $direct = self::client($product, ['signing' => ['public_keys' => $keys]]);
        $direct->activate($relayKey, 'relay.example.net');
        $stack->revoke($license['id']);

        $url = self::$server->relay(['license_key' => $relayKey]);
        $relayed = self::client($product, ['base_url' => $url, 'signing' => ['public_keys' => $keys]]);
        $key = $license['licenseKey'];
        $calls = [
            'validate' => function () use ($relayed, $key) {
                $relayed->validate($key, ['domain' => 'relay.example.net']);
            },
            'activate' => function () use ($relayed, $key) {
                $relayed->activate($key, 'relay.example.net');
            },
            'check' => function () use ($relayed, $key) {
                $relayed->check($key, 'relay.example.net');
            },
            'deactivate' => function () use ($relayed, $key) {
                $relayed->deactivate($key, 'other.example.net');
            },
        ];
        foreach ($calls as $name => $call) {
            $refused = Thrown::by($call);
            $this->assertInstanceOf(SignatureException::class, $refused, $name);
            $this->assertSame('wrong_license_key', $refused->reason(), $name);
        }
        // What the relay was answered: genuine and valid, for its own key.
        $this->assertSame(200, self::$server->log($url)[0]['upstream']['status']);

        // The same key, another site: the check the relay got for its own site does not pass for this one.
        $bySite = self::client($product, ['base_url' => self::$server->relay(['domain' => 'relay.example.net']), 'signing' => ['public_keys' => $keys]]);
        $refused = Thrown::by(function () use ($bySite, $relayKey) {
            $bySite->check($relayKey, 'https://www.pirate.example.org/');
        });
        $this->assertInstanceOf(SignatureException::class, $refused);
        $this->assertSame('wrong_domain', $refused->reason());
        // Unchanged, the same call verifies (the domain compared as the service normalizes it).
        $this->assertTrue($direct->check($relayKey, 'https://WWW.Relay.Example.NET:8443/shop')['activated']);
    }

    public function testTrustsOnFirstUseFetchingTheKeysOnceAndAgainForAKeyIdItDoesNotKnow(): void
    {
        [$stack, $product, $license] = self::vendor();
        $url = self::$server->scenario('forward');
        $storage = new MemoryStorage();
        $options = ['base_url' => $url, 'signing' => ['trust_on_first_use' => true], 'cache' => $storage];
        $first = self::client($product, $options);
        $first->validate($license['licenseKey']);
        $first->activate($license['licenseKey'], 'shop.example.com');
        self::client($product, $options)->validate($license['licenseKey']); // another request, the same storage
        $keyFetches = function () use ($url): int {
            return count(array_filter(self::$server->log($url), static function (array $request): bool {
                return $request['path'] === '/public/v1/signing-key';
            }));
        };
        $this->assertSame(1, $keyFetches());
        $storageKey = 'licensing-keys:' . $product['public_key'];
        $this->assertSame(self::pinnedKeys($stack, $product)[0]['keyId'], json_decode((string) $storage->get($storageKey), true)[0]['keyId']);

        // Keys it kept that do not sign these answers (as after a rotation): one more fetch, and the answer verifies.
        $storage->set($storageKey, (string) json_encode(self::pinnedKeys($stack, $stack->product())));
        $this->assertTrue(self::client($product, $options)->validate($license['licenseKey'])->valid);
        $this->assertSame(2, $keyFetches());
    }

    public function testKeepsAnOfflineFileAndAnswersValidateFromItWhenTheServiceCannotBeReached(): void
    {
        [$stack, $product, $license, $keys] = self::vendor();
        $stored = null;
        $offline = ['load' => function () use (&$stored) {
            return $stored;
        }, 'save' => function (string $file) use (&$stored): void {
            $stored = $file;
        }];
        $key = $license['licenseKey'];
        $online = self::client($product, ['signing' => ['public_keys' => $keys], 'offline' => $offline, 'cache' => false]);
        $online->activate($key, 'https://www.shop.example.com/');
        $issued = $online->fetchOfflineLicense($key, 'shop.example.com');
        $this->assertSame($issued['license_file'], $stored);
        $this->assertInstanceOf(ActivationNotFoundException::class, Thrown::by(function () use ($online, $key) {
            $online->fetchOfflineLicense($key, 'never.example.com');
        }));

        $unreachable = self::client($product, ['base_url' => 'http://127.0.0.1:' . ScriptServer::freePort(), 'signing' => ['public_keys' => $keys], 'offline' => $offline, 'cache' => false]);
        $result = $unreachable->validate($key, ['domain' => 'shop.example.com']);
        $this->assertTrue($result->valid);
        $this->assertSame('offline', $result->source);
        $this->assertSame(['key' => $key, 'status' => 'active', 'seats' => 2, 'expiresAt' => null, 'features' => []], $result->license);
        $this->assertSame(['id' => $product['id'], 'slug' => $product['slug']], $result->product);
        $this->assertSame(strtotime($issued['valid_until']), $result->validUntil);
        $this->assertInstanceOf(NetworkException::class, $result->unavailable);
        $this->assertInstanceOf(NetworkException::class, Thrown::by(function () use ($unreachable, $key) {
            $unreachable->validate($key, ['domain' => 'other.example.com']);
        }));
        $wrongSite = Thrown::by(function () use ($unreachable, $key) {
            $unreachable->validateOffline($key, ['domain' => 'other.example.com']);
        });
        $this->assertInstanceOf(OfflineLicenseException::class, $wrongSite);
        $this->assertSame('wrong_domain', $wrongSite->reason());

        // A 5xx after the retries counts as unreachable; a definite refusal does not.
        $down = self::client($product, ['base_url' => self::$server->scenario('down503'), 'signing' => ['public_keys' => $keys], 'offline' => $offline, 'cache' => false]);
        $result = $down->validate($key, ['domain' => 'shop.example.com']);
        $this->assertSame('offline', $result->source);
        $this->assertInstanceOf(ServerException::class, $result->unavailable);
        $stack->revoke($license['id']);
        $revoked = $online->validate($key, ['domain' => 'shop.example.com']);
        $this->assertFalse($revoked->valid);
        $this->assertSame('service', $revoked->source);
    }

    public function testReportsLocalAndTestSitesAsStagingWhichLeaveTheSeatsFree(): void
    {
        [, $product, $license, $keys] = self::vendor(1);
        $client = self::client($product, ['signing' => ['public_keys' => $keys]]);
        $key = $license['licenseKey'];
        $this->assertSame('staging', $client->activate($key, 'http://localhost:8080/')['environment']);
        $this->assertSame('staging', $client->activate($key, 'shop.test')['environment']);
        $this->assertSame(['seats' => 1, 'activatedCount' => 0, 'stagingCount' => 2], array_intersect_key($client->validate($key)->license, ['seats' => 0, 'activatedCount' => 0, 'stagingCount' => 0]));
        $this->assertSame('production', $client->activate($key, 'shop.example.com')['environment']);
        $this->assertSame(1, $client->validate($key)->license['activatedCount']);
    }

    public function testAnActivateAnswered503AfterTheServiceActedIsRetriedIntoTheReplayedAnswer(): void
    {
        [$stack, $product, $license, $keys] = self::vendor();
        $url = self::$server->scenario('forwardfail');
        $activation = self::client($product, ['base_url' => $url, 'signing' => ['public_keys' => $keys]])->activate($license['licenseKey'], 'shop.example.com');
        [$first, $retry] = self::$server->log($url);
        $this->assertSame($first['headers']['idempotency-key'], $retry['headers']['idempotency-key']);
        $this->assertSame($first['headers']['signature-nonce'], $retry['headers']['signature-nonce']);
        $this->assertSame(200, $first['upstream']['status']);
        $this->assertSame('true', $retry['upstream']['headers']['idempotent-replayed']);
        $this->assertSame($first['upstream']['headers']['signature'], $retry['upstream']['headers']['signature']);
        $activations = $stack->call('GET', '/api/licenses/' . $license['id'], null, 200)['body']['activations'];
        $this->assertCount(1, $activations);
        $this->assertSame($activations[0]['id'], $activation['activation_id']);

        // Deactivate likewise: without the key, the retry would be "Activation not found".
        $url = self::$server->scenario('forwardfail');
        self::client($product, ['base_url' => $url, 'signing' => ['public_keys' => $keys]])->deactivate($license['licenseKey'], 'shop.example.com');
        $this->assertSame('true', self::$server->log($url)[1]['upstream']['headers']['idempotent-replayed']);
    }
}
