<?php

namespace Licensing\Verifier;

use Licensing\Exception\OfflineLicenseException;
use Licensing\Exception\SignatureException;

/**
 * Parses an offline license file and checks its signature. Returns its payload:
 * `['license' => [key, status, seats, activatedCount, expiresAt, environment?], 'product' => [id?, name?, slug?],
 *   'validUntil' => ?string, 'domains' => string[], 'environment' => ?string, 'issuedAt' => ?string]`.
 */
interface OfflineLicenseVerifier
{
    /**
     * @return array<string, mixed>
     * @throws OfflineLicenseException|SignatureException
     */
    public function verify(string $file): array;
}
