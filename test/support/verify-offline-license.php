<?php
/*
 * An offline license file verifier with nothing but PHP and its sodium extension, as a client library would have
 * (format v1: docs/api.md, "Offline license files"). Run by test/unit/licensing/offline-license-vectors.test.ts:
 *
 *   php test/support/verify-offline-license.php <vector.json>...
 *
 * Each vector is {licenseFile, publicKeys: [{keyId, publicKey}], domain, now}; prints {"<path>": "<verdict>", ...}
 * where a verdict is valid, tampered, expired, wrong_domain or unknown_key.
 */
declare(strict_types=1);

const BEGIN = '-----BEGIN LICENSE FILE v1-----';
const SIGNATURE = '-----SIGNATURE-----';
const END = '-----END LICENSE FILE v1-----';
const SIGNING_PREFIX = 'license-file:v1:';

function millis(string $timestamp): ?int
{
    try {
        return (int) (new DateTimeImmutable($timestamp))->format('Uv');
    } catch (Exception $e) {
        return null;
    }
}

/** @param array<int, array{keyId: string, publicKey: string}> $publicKeys */
function verdict(string $file, array $publicKeys, string $domain, string $now): string
{
    $lines = explode("\n", trim(str_replace("\r\n", "\n", $file)));
    $count = count($lines);
    // BEGIN, at least one payload line, SIGNATURE, the signature, END.
    if ($count < 5 || $lines[0] !== BEGIN || $lines[$count - 1] !== END || $lines[$count - 3] !== SIGNATURE) {
        return 'tampered';
    }
    $payloadBase64 = implode('', array_slice($lines, 1, $count - 4));
    $json = base64_decode($payloadBase64, true);
    $signature = base64_decode($lines[$count - 2], true);
    if ($json === false || $signature === false || strlen($signature) !== SODIUM_CRYPTO_SIGN_BYTES) {
        return 'tampered';
    }
    $payload = json_decode($json, true);
    if (!is_array($payload) || ($payload['format'] ?? null) !== 'license-file' || ($payload['version'] ?? null) !== 1 || !is_string($payload['keyId'] ?? null)) {
        return 'tampered';
    }
    $publicKey = null;
    foreach ($publicKeys as $key) {
        if ($key['keyId'] === $payload['keyId']) {
            $publicKey = base64_decode($key['publicKey'], true);
        }
    }
    if (!is_string($publicKey) || strlen($publicKey) !== SODIUM_CRYPTO_SIGN_PUBLICKEYBYTES) {
        return 'unknown_key';
    }
    if (!sodium_crypto_sign_verify_detached($signature, SIGNING_PREFIX . $payloadBase64, $publicKey)) {
        return 'tampered';
    }
    // Signed: from here the payload is the service's word.
    if (($payload['domain'] ?? null) !== $domain) {
        return 'wrong_domain';
    }
    $validUntil = is_string($payload['validUntil'] ?? null) ? millis($payload['validUntil']) : null;
    $nowMillis = millis($now);
    if ($validUntil === null || $nowMillis === null || $nowMillis >= $validUntil) {
        return 'expired';
    }
    return 'valid';
}

$verdicts = [];
foreach (array_slice($argv, 1) as $path) {
    $vector = json_decode((string) file_get_contents($path), true, 512, JSON_THROW_ON_ERROR);
    $verdicts[$path] = verdict($vector['licenseFile'], $vector['publicKeys'], $vector['domain'], $vector['now']);
}
echo json_encode($verdicts, JSON_UNESCAPED_SLASHES), "\n";
