<?php

namespace Licensing\Tests;

use Licensing\Client;
use Licensing\Tests\Support\ScriptServer;
use Licensing\Tests\Support\Stack;
use PHPUnit\Framework\TestCase;

/** `hasFeature($key)` against the local stack: a Pro plan's feature from the signed answer and from an offline file. */
final class FeaturesTest extends TestCase
{
    protected function setUp(): void
    {
        if (Stack::baseUrl() === null) {
            $this->markTestSkipped('LICENSING_BASE_URL is not set (run through vitest: npx vitest run --project integration clients/php)');
        }
    }

    public function testAProLicenseHasTheFeatureAndABasicOneDoesNotOnlineAndOffline(): void
    {
        $stack = Stack::tenant();
        $product = $stack->product(['features' => [['key' => 'reports', 'name' => 'Reports']]]);
        $plan = function (string $name, array $features) use ($stack, $product): array {
            return $stack->call('POST', '/api/products/' . $product['id'] . '/plans', ['name' => $name, 'billingCycle' => 'yearly', 'price' => 10, 'currency' => 'usd', 'features' => $features], 201)['body'];
        };
        $pro = $stack->license($product['id'], ['planId' => $plan('Pro', ['reports'])['id']]);
        $basic = $stack->license($product['id'], ['planId' => $plan('Basic', [])['id']]);
        $keys = $stack->call('GET', '/api/products/' . $product['id'], null, 200)['body']['signingKeys'];
        $stored = null;
        $offline = ['load' => function () use (&$stored) {
            return $stored;
        }, 'save' => function (string $file) use (&$stored): void {
            $stored = $file;
        }];
        $options = ['public_key' => $product['public_key'], 'signing' => ['public_keys' => $keys], 'offline' => $offline, 'cache' => false, 'retry_base_ms' => 5];
        $online = new Client(['base_url' => Stack::baseUrl()] + $options);
        $unreachable = new Client(['base_url' => 'http://127.0.0.1:' . ScriptServer::freePort()] + $options);

        foreach ([[$pro, true], [$basic, false]] as [$license, $expected]) {
            $key = $license['licenseKey'];
            $answer = $online->validate($key, ['domain' => 'shop.example.com']);
            $this->assertSame(['service', $expected, false], [$answer->source, $answer->hasFeature('reports'), $answer->hasFeature('white-label')]);

            $online->activate($key, 'shop.example.com');
            $online->fetchOfflineLicense($key, 'shop.example.com');
            $fromFile = $unreachable->validate($key, ['domain' => 'shop.example.com']);
            $this->assertSame(['offline', $expected], [$fromFile->source, $fromFile->hasFeature('reports')]);
            $this->assertSame($expected, $online->validateOffline($key, ['domain' => 'shop.example.com'])->hasFeature('reports'));
        }
        // A refusal carries no feature.
        $refused = $online->validate(substr($pro['licenseKey'], 0, -4) . 'ZZZZ');
        $this->assertSame([false, false], [$refused->valid, $refused->hasFeature('reports')]);
    }
}
