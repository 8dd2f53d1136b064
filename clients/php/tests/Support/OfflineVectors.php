<?php

namespace Licensing\Tests\Support;

/** The offline license file test vectors of docs/test-vectors/offline-license, as the service's formatter made them. */
final class OfflineVectors
{
    /** The license key every vector's file is for. */
    public const LICENSE_KEY = 'ACME-SEO-ABCD-EFGH-JKLM-NPQR';

    /** @return array<string, array{description: string, licenseFile: string, publicKeys: array<int, array{keyId: string, publicKey: string}>, domain: string, now: string, expected: string}> by file name */
    public static function all(): array
    {
        $vectors = [];
        foreach ((array) glob(__DIR__ . '/../../../../docs/test-vectors/offline-license/*.json') as $path) {
            $vectors[basename((string) $path)] = json_decode((string) file_get_contents((string) $path), true);
        }
        ksort($vectors);
        return $vectors;
    }

    /** @return array{description: string, licenseFile: string, publicKeys: array<int, array{keyId: string, publicKey: string}>, domain: string, now: string, expected: string} */
    public static function named(string $name): array
    {
        return self::all()[$name . '.json'];
    }
}
