<?php

namespace Licensing\Offline;

use Licensing\Client;
use Licensing\Signing\SigningKeys;

/**
 * Offline license files, format v1 (docs/api.md "Offline license files"): parsed and checked with ext-sodium alone,
 * in the documented order, first failure wins: tampered, unknown_key, tampered (signature), wrong_domain, expired.
 * The payload of a valid file: format, version, keyId, productId, productSlug, licenseId, licenseKey, status, seats,
 * expiresAt (null: lifetime), activationId, domain, issuedAt, validUntil.
 */
final class LicenseFile
{
    public const VALID = 'valid';
    public const TAMPERED = 'tampered';
    public const EXPIRED = 'expired';
    public const WRONG_DOMAIN = 'wrong_domain';
    public const UNKNOWN_KEY = 'unknown_key';

    private const BEGIN = '-----BEGIN LICENSE FILE v1-----';
    private const SIGNATURE = '-----SIGNATURE-----';
    private const END = '-----END LICENSE FILE v1-----';
    /** What precedes the payload's base64 in the signed message. */
    private const SIGNING_PREFIX = 'license-file:v1:';

    /**
     * The verdict on `$file` for the site `$domain` at `$now` (unix seconds, fractions allowed). `$refresh`: the keys
     * may be fetched again (for a file just received online; never offline).
     *
     * @param int|float $now
     * @return array{verdict: string, payload?: array<string, mixed>}
     */
    public static function check(string $file, SigningKeys $keys, string $domain, $now, bool $refresh = false): array
    {
        $lines = explode("\n", trim(str_replace("\r\n", "\n", $file)));
        $count = count($lines);
        // BEGIN, at least one payload line, SIGNATURE, the signature, END.
        if ($count < 5 || $lines[0] !== self::BEGIN || $lines[$count - 1] !== self::END || $lines[$count - 3] !== self::SIGNATURE) {
            return ['verdict' => self::TAMPERED];
        }
        $payloadBase64 = implode('', array_slice($lines, 1, $count - 4));
        $json = base64_decode($payloadBase64, true);
        $signature = base64_decode($lines[$count - 2], true);
        if ($json === false || $signature === false || strlen($signature) !== SODIUM_CRYPTO_SIGN_BYTES) {
            return ['verdict' => self::TAMPERED];
        }
        $payload = json_decode($json, true);
        if (!is_array($payload) || ($payload['format'] ?? null) !== 'license-file' || ($payload['version'] ?? null) !== 1 || !is_string($payload['keyId'] ?? null)) {
            return ['verdict' => self::TAMPERED];
        }
        $key = $keys->find($payload['keyId'], $refresh);
        if ($key === null) {
            return ['verdict' => self::UNKNOWN_KEY];
        }
        if (!sodium_crypto_sign_verify_detached($signature, self::SIGNING_PREFIX . $payloadBase64, $key)) {
            return ['verdict' => self::TAMPERED];
        }
        // Signed: from here the payload is the service's word.
        if (($payload['domain'] ?? null) !== Client::normalizeDomain($domain)) {
            return ['verdict' => self::WRONG_DOMAIN];
        }
        $validUntil = self::seconds($payload['validUntil'] ?? null);
        if ($validUntil === null || $now >= $validUntil) {
            return ['verdict' => self::EXPIRED];
        }
        return ['verdict' => self::VALID, 'payload' => $payload];
    }

    /** @param mixed $timestamp An ISO 8601 time. */
    public static function seconds($timestamp): ?float
    {
        if (!is_string($timestamp)) {
            return null;
        }
        try {
            return (float) (new \DateTimeImmutable($timestamp))->format('U.u');
        } catch (\Exception $e) {
            return null;
        }
    }
}
