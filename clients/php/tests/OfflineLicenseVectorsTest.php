<?php

namespace Licensing\Tests;

use Licensing\Client;
use Licensing\Exception\OfflineLicenseException;
use Licensing\Offline\LicenseFile;
use Licensing\Signing\SigningKeys;
use Licensing\Tests\Support\OfflineVectors;
use PHPUnit\Framework\TestCase;

/** The client's offline license file verifier against every published test vector (docs/test-vectors/offline-license). */
final class OfflineLicenseVectorsTest extends TestCase
{
    public function testCoversEveryDocumentedVerdict(): void
    {
        $verdicts = array_values(array_unique(array_column(OfflineVectors::all(), 'expected')));
        sort($verdicts);
        $this->assertSame(['expired', 'tampered', 'unknown_key', 'valid', 'wrong_domain'], $verdicts);
    }

    /** @return array<string, array{0: array<string, mixed>}> */
    public function vectors(): array
    {
        return array_map(static function (array $vector): array {
            return [$vector];
        }, OfflineVectors::all());
    }

    /**
     * @dataProvider vectors
     * @param array{licenseFile: string, publicKeys: array<int, array{keyId: string, publicKey: string}>, domain: string, now: string, expected: string} $vector
     */
    public function testGivesEachVectorItsVerdict(array $vector): void
    {
        $now = LicenseFile::seconds($vector['now']);
        $keys = SigningKeys::pinned($vector['publicKeys'], static function () use ($now): int {
            return (int) $now;
        });
        $this->assertSame($vector['expected'], LicenseFile::check($vector['licenseFile'], $keys, $vector['domain'], $now)['verdict']);
    }

    /**
     * @dataProvider vectors
     * @param array{licenseFile: string, publicKeys: array<int, array{keyId: string, publicKey: string}>, domain: string, now: string, expected: string} $vector
     */
    public function testValidateOfflineAnswersAValidFileAndGivesEveryOtherVerdictAsItsReason(array $vector): void
    {
        $client = self::client($vector);
        try {
            $result = $client->validateOffline(OfflineVectors::LICENSE_KEY, ['domain' => $vector['domain']]);
            $this->assertSame('valid', $vector['expected']);
            $this->assertTrue($result->valid);
            $this->assertSame('offline', $result->source);
            $this->assertSame(['key' => OfflineVectors::LICENSE_KEY, 'status' => 'active', 'seats' => 3, 'expiresAt' => '2027-01-15T00:00:00.000Z', 'features' => ['reports']], $result->license);
            $this->assertSame([true, false], [$result->hasFeature('reports'), $result->hasFeature('exports')]);
            $this->assertSame('acme-seo', $result->product['slug']);
            $this->assertSame(strtotime('2026-03-01T12:00:00Z'), $result->checkedAt);
            $this->assertSame(strtotime('2026-03-31T12:00:00Z'), $result->validUntil);
        } catch (OfflineLicenseException $e) {
            $this->assertSame($vector['expected'], $e->reason());
        }
    }

    public function testNormalizesTheSiteAndRefusesAFileOfAnotherKeyOrProductOrOnAClockTurnedBack(): void
    {
        $vector = OfflineVectors::named('valid');
        $this->assertTrue(self::client($vector)->validateOffline(OfflineVectors::LICENSE_KEY, ['domain' => 'https://WWW.Shop.Example.com:8443/wp'])->valid);
        $cases = [
            'other_license' => [self::client($vector), 'ACME-AAAA-BBBB-CCCC-DDDD', ['domain' => 'shop.example.com']],
            'other_product' => [self::client($vector, 'another-product'), OfflineVectors::LICENSE_KEY, ['domain' => 'shop.example.com']],
            'not_configured' => [self::client($vector), OfflineVectors::LICENSE_KEY, []],
            'clock' => [self::client(['now' => '2026-02-01T00:00:00Z'] + $vector), OfflineVectors::LICENSE_KEY, ['domain' => 'shop.example.com']],
        ];
        foreach ($cases as $reason => [$client, $key, $options]) {
            try {
                $client->validateOffline($key, $options);
                $this->fail($reason);
            } catch (OfflineLicenseException $e) {
                $this->assertSame($reason, $e->reason());
            }
        }
        $this->expectException(\InvalidArgumentException::class);
        new Client(['base_url' => 'https://licenses.invalid', 'offline' => ['load' => 'time']]);
    }

    /** @param array{licenseFile: string, publicKeys: array<int, array{keyId: string, publicKey: string}>, now: string} $vector */
    private static function client(array $vector, ?string $productSlug = null): Client
    {
        return new Client([
            'base_url' => 'https://licenses.invalid',
            'public_key' => 'pk_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa',
            'product_slug' => $productSlug,
            'clock' => static function () use ($vector): int {
                return (int) LicenseFile::seconds($vector['now']);
            },
            'signing' => ['public_keys' => $vector['publicKeys']],
            'offline' => ['load' => static function () use ($vector): string {
                return $vector['licenseFile'];
            }],
        ]);
    }
}
