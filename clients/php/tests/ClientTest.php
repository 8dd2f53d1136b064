<?php

namespace Licensing\Tests;

use Licensing\Cache\MemoryStorage;
use Licensing\Client;
use Licensing\Exception\ActivationNotFoundException;
use Licensing\Exception\InvalidPublicKeyException;
use Licensing\Exception\InvalidRequestException;
use Licensing\Exception\LicenseException;
use Licensing\Exception\LicenseExpiredException;
use Licensing\Exception\LicenseNotFoundException;
use Licensing\Exception\LicenseRevokedException;
use Licensing\Exception\LicenseSuspendedException;
use Licensing\Exception\NetworkException;
use Licensing\Exception\ProductNotCoveredException;
use Licensing\Exception\ProductNotFoundException;
use Licensing\Exception\LeaseNotFoundException;
use Licensing\Exception\NoLeaseException;
use Licensing\Exception\SeatLimitReachedException;
use Licensing\Exception\SeatsInUseException;
use Licensing\Exception\WrongProductException;
use Licensing\Http\StreamTransport;
use Licensing\Tests\Support\ScriptServer;
use Licensing\Tests\Support\Stack;
use Licensing\Tests\Support\Thrown;
use PHPUnit\Framework\TestCase;

/** The PHP client against the local stack, through HTTP: every call and every answer it turns into an exception. */
final class ClientTest extends TestCase
{
    private const UNKNOWN_PUBLIC_KEY = 'pk_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';
    private const UNKNOWN_KEY = 'ACME-AAAA-BBBB-CCCC-DDDD';

    protected function setUp(): void
    {
        if (Stack::baseUrl() === null) {
            $this->markTestSkipped('LICENSING_BASE_URL is not set (run through vitest: npx vitest run --project integration clients/php)');
        }
    }

    /** @param array<string, mixed> $options */
    private static function client(string $publicKey, array $options = []): Client
    {
        return new Client(array_merge(['base_url' => Stack::baseUrl(), 'public_key' => $publicKey], $options));
    }

    /** @return array{Stack, array<string, mixed>, array<string, mixed>, Client} */
    private static function vendor(): array
    {
        $stack = Stack::tenant();
        $product = $stack->product();
        $other = $stack->product();
        return [$stack, $product, $other, self::client($product['public_key'])];
    }

    public function testValidatesAUsableKey(): void
    {
        [$stack, $product, , $client] = self::vendor();
        $license = $stack->license($product['id'], ['seats' => 3]);
        $result = $client->validate($license['licenseKey'], ['domain' => 'https://www.example.com/', 'version' => '1.0.0']);
        $this->assertTrue($result->valid);
        $this->assertSame('service', $result->source);
        $this->assertSame(['key' => $license['licenseKey'], 'status' => 'active', 'seats' => 3, 'activatedCount' => 0, 'stagingCount' => 0, 'expiresAt' => null, 'channel' => 'stable', 'inGrace' => false, 'features' => []], $result->license);
        $this->assertSame(['id' => $product['id'], 'name' => $product['name'], 'slug' => $product['slug']], $result->product);
        $this->assertNull($result->error);
    }

    public function testTurnsEveryValidationRefusalIntoItsTypedException(): void
    {
        [$stack, $product, $other, $client] = self::vendor();
        $expired = $stack->license($product['id'], ['expiresAt' => '2020-01-01T00:00:00Z']);
        $suspended = $stack->license($product['id']);
        $stack->suspend($suspended['id']);
        $revoked = $stack->license($product['id']);
        $stack->revoke($revoked['id']);
        $good = $stack->license($product['id']);
        $bundle = $stack->product(['productType' => 'bundle', 'includes' => [$product['id'], $stack->product()['id']]]);
        $bundleKey = $stack->license($bundle['id']);
        $cases = [
            [$expired['licenseKey'], $client, LicenseExpiredException::class, 'expired', 400],
            [$suspended['licenseKey'], $client, LicenseSuspendedException::class, 'suspended', 400],
            [$revoked['licenseKey'], $client, LicenseRevokedException::class, 'revoked', 400],
            [self::UNKNOWN_KEY, $client, LicenseNotFoundException::class, 'not_found', 404],
            [$good['licenseKey'], self::client($product['public_key'], ['product_slug' => $other['slug']]), WrongProductException::class, 'wrong_product', 400],
            [$good['licenseKey'], self::client(self::UNKNOWN_PUBLIC_KEY), InvalidPublicKeyException::class, 'invalid_public_key', 404],
            [$good['licenseKey'], self::client($other['public_key']), LicenseNotFoundException::class, 'not_found', 404],
            // A bundle's key through a product of the vendor the bundle does not include (DECISIONS §23).
            [$bundleKey['licenseKey'], self::client($other['public_key']), ProductNotCoveredException::class, 'not_covered', 403],
        ];
        foreach ($cases as [$key, $caller, $class, $code, $status]) {
            $result = $caller->validate($key);
            $this->assertFalse($result->valid, $code);
            $this->assertInstanceOf($class, $result->error);
            $this->assertInstanceOf(LicenseException::class, $result->error);
            $this->assertSame($code, $result->error->errorCode());
            $this->assertSame($status, $result->error->status());
        }
        $this->assertTrue(self::client($product['public_key'], ['product_slug' => $product['slug']])->validate($good['licenseKey'])->valid);
        $bad = $client->validate('');
        $this->assertInstanceOf(InvalidRequestException::class, $bad->error);
        $this->assertSame('license_key is required', $bad->error->getMessage());
    }

    public function testStandsInWithTheCachedAnswerWhenTheServiceCannotBeReachedButNotAfterARevoke(): void
    {
        [$stack, $product] = self::vendor();
        $license = $stack->license($product['id']);
        $storage = new MemoryStorage();
        $online = self::client($product['public_key'], ['cache' => $storage]);
        $offline = new Client(['base_url' => 'http://127.0.0.1:' . ScriptServer::freePort(), 'public_key' => $product['public_key'], 'cache' => $storage, 'retry_base_ms' => 5]);
        $this->assertSame('service', $online->validate($license['licenseKey'])->source);
        $cached = $offline->validate($license['licenseKey']);
        $this->assertSame('cache', $cached->source);
        $this->assertInstanceOf(NetworkException::class, $cached->unavailable);
        $stack->revoke($license['id']);
        $this->assertInstanceOf(LicenseRevokedException::class, $online->validate($license['licenseKey'])->error);
        $this->expectException(NetworkException::class);
        $offline->validate($license['licenseKey']);
    }

    public function testActivatesChecksAndDeactivates(): void
    {
        [$stack, $product, , $client] = self::vendor();
        $license = $stack->license($product['id'], ['seats' => 2]);
        $key = $license['licenseKey'];
        $first = $client->activate($key, 'https://www.Shop.example.com/wp', ['version' => '1.0.0']);
        $this->assertMatchesRegularExpression('/^act_[a-z2-7]{24}$/', $first['activation_id']);
        $this->assertNotFalse(strtotime($first['activated_at']));
        $this->assertSame('production', $first['environment']);
        $this->assertSame($first, $client->activate($key, 'shop.example.com'));
        $this->assertSame(['activated' => true, 'activation_id' => $first['activation_id']], $client->check($key, 'shop.example.com'));
        $this->assertSame(['activated' => false, 'activation_id' => null], $client->check($key, 'elsewhere.example.com'));
        $this->assertSame(1, $client->validate($key)->license['activatedCount']);

        $client->deactivate($key, 'shop.example.com');
        $this->assertFalse($client->check($key, 'shop.example.com')['activated']);
        $again = $client->activate($key, 'shop.example.com');
        $this->assertNotSame($first['activation_id'], $again['activation_id']);
        $client->deactivate($key, ['activation_id' => $again['activation_id']]);
        $error = Thrown::by(function () use ($client, $key, $again) {
            $client->deactivate($key, ['activation_id' => $again['activation_id']]);
        });
        $this->assertInstanceOf(ActivationNotFoundException::class, $error);
        $this->assertSame(['activation_not_found', 400], [$error->errorCode(), $error->status()]);
    }

    public function testActivatesAMachineAndHoldsAFloatingSeat(): void
    {
        [$stack, $product, , $client] = self::vendor();
        $key = $stack->license($product['id'], ['seats' => 1])['licenseKey'];
        $activation = $client->activateMachine($key, 'f3a9c2d4e5b6', ['name' => 'Build box', 'platform' => 'linux-x64']);
        $this->assertMatchesRegularExpression('/^act_[a-z2-7]{24}$/', $activation['activation_id']);
        $this->assertTrue($client->validate($key, ['machine' => 'f3a9c2d4e5b6'])->valid);
        $this->assertInstanceOf(SeatLimitReachedException::class, Thrown::by(function () use ($client, $key) {
            $client->activate($key, 'one.example.com');
        }));
        $client->deactivateMachine($key, 'f3a9c2d4e5b6');

        $floating = $stack->license($product['id'], ['seats' => 1, 'floating' => true])['licenseKey'];
        $lease = $client->lease($floating, 'desk-1');
        $this->assertMatchesRegularExpression('/^lse_[a-z2-7]{24}$/', $lease['lease_id']);
        $this->assertGreaterThan(time() + 800, strtotime($client->heartbeat($floating, $lease['lease_id'])));
        $this->assertInstanceOf(SeatsInUseException::class, Thrown::by(function () use ($client, $floating) {
            $client->lease($floating, 'desk-2');
        }));
        $this->assertInstanceOf(NoLeaseException::class, $client->validate($floating, ['machine' => 'desk-2'])->error);
        $client->releaseLease($floating, $lease['lease_id']);
        $this->assertInstanceOf(LeaseNotFoundException::class, Thrown::by(function () use ($client, $floating, $lease) {
            $client->heartbeat($floating, $lease['lease_id']);
        }));
        $this->assertMatchesRegularExpression('/^lse_/', $client->lease($floating, 'desk-2')['lease_id']);
    }

    public function testRefusesAFullLicense(): void
    {
        [$stack, $product, , $client] = self::vendor();
        $key = $stack->license($product['id'], ['seats' => 1])['licenseKey'];
        $client->activate($key, 'one.example.com');
        $error = Thrown::by(function () use ($client, $key) {
            $client->activate($key, 'two.example.com');
        });
        $this->assertInstanceOf(SeatLimitReachedException::class, $error);
        $this->assertSame(['seat_limit', 400, 'License seat limit reached'], [$error->errorCode(), $error->status(), $error->getMessage()]);
    }

    public function testThrowsTheTypedExceptionOfEachLicenseStateOnActivateCheckAndDeactivate(): void
    {
        [$stack, $product, $other, $client] = self::vendor();
        $expired = $stack->license($product['id'], ['expiresAt' => '2020-01-01T00:00:00Z'])['licenseKey'];
        $suspendedLicense = $stack->license($product['id']);
        $stack->suspend($suspendedLicense['id']);
        $suspended = $suspendedLicense['licenseKey'];
        $revokedLicense = $stack->license($product['id']);
        $stack->revoke($revokedLicense['id']);
        $revoked = $revokedLicense['licenseKey'];
        $good = $stack->license($product['id'])['licenseKey'];
        $wrongSlug = self::client($product['public_key'], ['product_slug' => $other['slug']]);
        $badKey = self::client(self::UNKNOWN_PUBLIC_KEY);
        $cases = [
            [function () use ($client, $expired) { $client->activate($expired, 'a.example.com'); }, LicenseExpiredException::class],
            [function () use ($client, $suspended) { $client->activate($suspended, 'a.example.com'); }, LicenseSuspendedException::class],
            [function () use ($client, $revoked) { $client->activate($revoked, 'a.example.com'); }, LicenseRevokedException::class],
            [function () use ($client) { $client->activate(self::UNKNOWN_KEY, 'a.example.com'); }, LicenseNotFoundException::class],
            [function () use ($wrongSlug, $good) { $wrongSlug->activate($good, 'a.example.com'); }, WrongProductException::class],
            [function () use ($badKey, $good) { $badKey->activate($good, 'a.example.com'); }, InvalidPublicKeyException::class],
            [function () use ($client, $good) { $client->activate($good, '   '); }, InvalidRequestException::class],
            [function () use ($client, $expired) { $client->check($expired, 'a.example.com'); }, LicenseExpiredException::class],
            [function () use ($client, $suspended) { $client->check($suspended, 'a.example.com'); }, LicenseSuspendedException::class],
            [function () use ($client, $revoked) { $client->check($revoked, 'a.example.com'); }, LicenseRevokedException::class],
            [function () use ($client) { $client->check(self::UNKNOWN_KEY, 'a.example.com'); }, LicenseNotFoundException::class],
            [function () use ($wrongSlug, $good) { $wrongSlug->check($good, 'a.example.com'); }, WrongProductException::class],
            [function () use ($badKey, $good) { $badKey->check($good, 'a.example.com'); }, InvalidPublicKeyException::class],
            [function () use ($badKey, $good) { $badKey->deactivate($good, 'a.example.com'); }, InvalidPublicKeyException::class],
            [function () use ($client) { $client->deactivate(self::UNKNOWN_KEY, 'a.example.com'); }, LicenseNotFoundException::class],
            [function () use ($client, $good) { $client->deactivate($good, 'never.example.com'); }, ActivationNotFoundException::class],
        ];
        foreach ($cases as $i => [$call, $class]) {
            $this->assertInstanceOf($class, Thrown::by($call), "case $i");
        }
    }

    public function testWorksOverPhpStreamsToo(): void
    {
        [$stack, $product] = self::vendor();
        $client = self::client($product['public_key'], ['transport' => new StreamTransport()]);
        $key = $stack->license($product['id'], ['seats' => 1])['licenseKey'];
        $this->assertTrue($client->validate($key)->valid);
        $client->activate($key, 'one.example.com');
        $this->assertInstanceOf(SeatLimitReachedException::class, Thrown::by(function () use ($client, $key) {
            $client->activate($key, 'two.example.com');
        }));
        $client->deactivate($key, 'one.example.com');
        $this->assertInstanceOf(LicenseNotFoundException::class, $client->validate(self::UNKNOWN_KEY)->error);
    }

    public function testListsPlansAndBuildsCheckoutUrlsTheServiceRedirects(): void
    {
        $stack = Stack::tenant();
        $product = $stack->product();
        $pro = $stack->call('POST', '/api/products/' . $product['id'] . '/plans', ['name' => 'Pro', 'slug' => 'pro', 'billingCycle' => 'yearly', 'price' => 49, 'currency' => 'usd', 'siteLimit' => 5], 201)['body'];
        $stack->call('POST', '/api/products/' . $product['id'] . '/plans', ['name' => 'Hidden', 'billingCycle' => 'yearly', 'price' => 9, 'currency' => 'usd', 'isPublic' => false], 201);
        $client = self::client($product['public_key']);
        $plans = $client->plans();
        $this->assertCount(1, $plans);
        $publicId = preg_replace('/^pln_/', 'plan_', $pro['id']);
        $this->assertSame(['id' => $publicId, 'slug' => 'pro', 'price' => 49, 'currency' => 'USD', 'billingCycle' => 'yearly', 'siteLimit' => 5], array_intersect_key($plans[0], array_flip(['id', 'slug', 'price', 'currency', 'billingCycle', 'siteLimit'])));
        $this->assertSame($plans[0]['checkoutUrl'], $client->checkoutUrl(['plan_id' => $publicId]));

        // Without a payment provider the service explains; with one (the stack's fake Stripe) it redirects.
        $url = $client->checkoutUrl(['plan' => 'pro', 'email' => 'buyer@example.com', 'return_url' => 'https://app.test/thanks?from=app', 'activate_param' => 'key']);
        $this->assertSame('https://app.test/thanks?from=app', self::query($url)['return_url']);
        $this->assertSame(400, self::status($url));
        $stack->verifyAddress();
        $stack->call('PUT', '/api/payment-provider', ['provider' => 'stripe', 'secretKey' => 'sk_test_good' . bin2hex(random_bytes(12)), 'webhookSecret' => 'whsec_dGVzdHNlY3JldHRlc3RzZWNyZXQ='], 200);
        $this->assertSame(303, self::status($url));
        $this->assertInstanceOf(InvalidPublicKeyException::class, Thrown::by(function () {
            self::client(self::UNKNOWN_PUBLIC_KEY)->plans();
        }));
    }

    /** @return array<string, string> */
    private static function query(string $url): array
    {
        parse_str((string) parse_url($url, PHP_URL_QUERY), $query);
        return $query;
    }

    private static function status(string $url): int
    {
        $handle = curl_init($url);
        curl_setopt_array($handle, [CURLOPT_RETURNTRANSFER => true, CURLOPT_FOLLOWLOCATION => false, CURLOPT_TIMEOUT => 10]);
        curl_exec($handle);
        $status = (int) curl_getinfo($handle, CURLINFO_RESPONSE_CODE);
        curl_close($handle);
        return $status;
    }

    public function testRecordsFeedbackEventsAndDeactivationReasons(): void
    {
        [$stack, $product, , $client] = self::vendor();
        $key = $stack->license($product['id'])['licenseKey'];
        $id = $client->feedback('bug', 'It broke', ['email' => 'user@example.com', 'license_key' => $key, 'domain' => 'https://www.site.example', 'metadata' => ['php' => PHP_VERSION]]);
        $this->assertMatchesRegularExpression('/^fbk_/', $id);
        $client->track('settings_saved', ['tab' => 'general'], ['license_key' => $key, 'domain' => 'site.example']);
        $client->track('opened');
        $reason = $client->deactivationReason('too-expensive', ['details' => 'Found a cheaper one', 'license_key' => $key, 'domain' => 'site.example']);
        $this->assertMatchesRegularExpression('/^drs_/', $reason);

        $feedback = $stack->call('GET', '/api/products/' . $product['id'] . '/feedback', null, 200)['body']['items'];
        $this->assertSame([$id, 'bug', 'It broke', 'user@example.com', $key, 'site.example', ['php' => PHP_VERSION]], [$feedback[0]['id'], $feedback[0]['type'], $feedback[0]['message'], $feedback[0]['email'], $feedback[0]['licenseKey'], $feedback[0]['domain'], $feedback[0]['metadata']]);
        // Events are written by the service's queue writer within seconds of the 202.
        $events = [];
        for ($deadline = microtime(true) + 15; count($events) < 2 && microtime(true) < $deadline; usleep(100000)) {
            $events = $stack->call('GET', '/api/products/' . $product['id'] . '/events', null, 200)['body']['items'];
        }
        $this->assertSame(['opened', 'settings_saved'], array_column($events, 'event'));
        $this->assertSame(['tab' => 'general'], $events[1]['properties']);
        $reasons = $stack->call('GET', '/api/products/' . $product['id'] . '/deactivation-reasons', null, 200)['body']['items'];
        $this->assertSame([$reason, 'too-expensive', 'Found a cheaper one'], [$reasons[0]['id'], $reasons[0]['reason'], $reasons[0]['details']]);

        $this->assertInstanceOf(InvalidRequestException::class, Thrown::by(function () use ($client) {
            $client->feedback('bug', '');
        }));
        $this->assertInstanceOf(InvalidRequestException::class, Thrown::by(function () use ($client) {
            $client->feedback('praise', 'Hi');
        }));
        $this->assertInstanceOf(InvalidRequestException::class, Thrown::by(function () use ($client) {
            $client->track(str_repeat('x', 101));
        }));
        $this->assertInstanceOf(InvalidRequestException::class, Thrown::by(function () use ($client) {
            $client->deactivationReason('');
        }));
        $stranger = self::client(self::UNKNOWN_PUBLIC_KEY);
        foreach ([
            function () use ($stranger) { $stranger->feedback('general', 'Hi'); },
            function () use ($stranger) { $stranger->track('opened'); },
            function () use ($stranger) { $stranger->deactivationReason('other'); },
        ] as $call) {
            $this->assertInstanceOf(InvalidPublicKeyException::class, Thrown::by($call));
        }
    }

    public function testChecksForUpdatesAndGivesTheDownloadOnlyToAUsableKey(): void
    {
        $stack = Stack::tenant();
        $product = $stack->product(['description' => 'A plugin', 'tested' => '6.4', 'requires' => '6.0', 'requiresPhp' => '7.4', 'homepage' => 'https://plugin.example']);
        $stack->release($product['id'], '1.0.0', ['releaseNotes' => 'First']);
        $latest = $stack->release($product['id'], '1.1.0', ['releaseNotes' => 'Second']);
        $license = $stack->license($product['id']);
        $client = self::client($product['public_key'], ['product_slug' => $product['slug']]);

        $update = $client->checkForUpdate($license['licenseKey'], '1.0.0', ['domain' => 'site.example']);
        $this->assertSame('1.1.0', $update['latest_version']);
        $this->assertTrue($update['update_available']);
        $this->assertSame(Stack::baseUrl() . '/v1/download/' . $latest['id'] . '?license_key=' . rawurlencode($license['licenseKey']), $update['download_url']);
        $this->assertSame(['6.4', '6.0', '7.4', 'https://plugin.example'], [$update['info']['tested'], $update['info']['requires'], $update['info']['requires_php'], $update['info']['url']]);
        $this->assertStringContainsString('<h4>1.1.0</h4>', $update['info']['sections']['changelog']);
        $this->assertSame(302, self::status($update['download_url']));

        $this->assertFalse($client->checkForUpdate($license['licenseKey'], '1.1.0')['update_available']);
        $stack->revoke($license['id']);
        $revoked = $client->checkForUpdate($license['licenseKey'], '1.0.0');
        $this->assertTrue($revoked['update_available']);
        $this->assertNull($revoked['download_url']);

        $error = Thrown::by(function () use ($client, $license) {
            $client->checkForUpdate($license['licenseKey'], '1.0.0', ['slug' => 'no-such-product-slug-xyz']);
        });
        $this->assertInstanceOf(ProductNotFoundException::class, $error);
        $this->assertSame([404, 'product_not_found'], [$error->status(), $error->errorCode()]);
        $this->assertInstanceOf(InvalidRequestException::class, Thrown::by(function () use ($client, $license) {
            $client->checkForUpdate($license['licenseKey'], '');
        }));
    }

    public function testSendsTheSitesChannelAndVersionsAndListsTheVersionsOfTheLicensesChannels(): void
    {
        $stack = Stack::tenant();
        $product = $stack->product(['requiresPhp' => '7.4']);
        $stable = $stack->release($product['id'], '1.0.0');
        $stack->release($product['id'], '1.1.0', ['requiresPhp' => '8.3']);
        $beta = $stack->release($product['id'], '2.0.0-beta.1', ['channel' => 'beta']);
        $betaLicense = $stack->license($product['id'], ['channel' => 'beta']);
        $client = self::client($product['public_key'], ['product_slug' => $product['slug']]);
        $this->assertSame('beta', $client->validate($betaLicense['licenseKey'])->license['channel']);

        // The site's own channel, capped by the license's; its PHP keeps it from 1.1.0.
        $this->assertSame('2.0.0-beta.1', $client->checkForUpdate($betaLicense['licenseKey'], '1.0.0', ['channel' => 'beta', 'php' => '8.2.12', 'wp' => '6.5'])['latest_version']);
        $this->assertSame('1.0.0', $client->checkForUpdate($betaLicense['licenseKey'], '1.0.0', ['channel' => 'stable', 'php' => '8.2.12'])['latest_version']);
        $this->assertSame('1.1.0', $client->checkForUpdate($betaLicense['licenseKey'], '1.0.0', ['channel' => 'stable', 'php' => '8.3.0'])['latest_version']);
        $this->assertInstanceOf(InvalidRequestException::class, Thrown::by(function () use ($client, $betaLicense) {
            $client->checkForUpdate($betaLicense['licenseKey'], '1.0.0', ['channel' => 'nightly']);
        }));

        $versions = $client->versions($betaLicense['licenseKey']);
        $this->assertSame(['2.0.0-beta.1', '1.1.0', '1.0.0'], array_column($versions, 'version'));
        $this->assertSame('beta', $versions[0]['channel']);
        $this->assertSame(Stack::baseUrl() . '/v1/download/' . $beta['id'] . '?license_key=' . rawurlencode($betaLicense['licenseKey']), $versions[0]['package']);
        $stableLicense = $stack->license($product['id']);
        $this->assertSame(['1.1.0', '1.0.0'], array_column($client->versions($stableLicense['licenseKey']), 'version'));
        $this->assertSame(302, self::status(Stack::baseUrl() . '/v1/download/' . $stable['id'] . '?license_key=' . rawurlencode($stableLicense['licenseKey'])));
        $stack->revoke($stableLicense['id']);
        $this->assertInstanceOf(LicenseRevokedException::class, Thrown::by(function () use ($client, $stableLicense) {
            $client->versions($stableLicense['licenseKey']);
        }));
        $this->assertInstanceOf(ProductNotFoundException::class, Thrown::by(function () use ($client, $betaLicense) {
            $client->versions($betaLicense['licenseKey'], ['slug' => 'no-such-product-slug-xyz']);
        }));
    }

    public function testTellsAnExpiredLicenseToRenewWithThePlansCheckout(): void
    {
        $stack = Stack::tenant();
        $product = $stack->product();
        $stack->release($product['id'], '1.0.0');
        $plan = $stack->call('POST', '/api/products/' . $product['id'] . '/plans', ['name' => 'Pro', 'billingCycle' => 'yearly', 'price' => 49, 'currency' => 'usd'], 201)['body'];
        $expired = $stack->license($product['id'], ['planId' => $plan['id'], 'expiresAt' => '2020-01-01T00:00:00Z']);
        $client = self::client($product['public_key'], ['product_slug' => $product['slug']]);

        $update = $client->checkForUpdate($expired['licenseKey'], '0.9.0');
        $this->assertTrue($update['update_available']);
        $this->assertNull($update['download_url']);
        $this->assertSame('Renew your license to update to 1.0.0', $update['renewal']['notice']);
        $this->assertSame(Stack::baseUrl() . '/public/v1/checkout/' . preg_replace('/^pln_/', 'plan_', $plan['id']) . '?public_key=' . $product['public_key'], $update['renewal']['url']);
        $this->assertSame($client->checkoutUrl(['plan_id' => preg_replace('/^pln_/', 'plan_', $plan['id'])]), $update['renewal']['url']);

        $current = $stack->license($product['id']);
        $this->assertNull($client->checkForUpdate($current['licenseKey'], '0.9.0')['renewal']);
    }
}
