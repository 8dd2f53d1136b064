<?php

namespace Licensing\Signing;

use Licensing\Cache\CacheStorage;

/**
 * The product's public signing keys the client trusts: pinned by the vendor (shipped with the plugin; the
 * recommended mode), or fetched from `GET /public/v1/signing-key` on first use and kept in a CacheStorage.
 */
final class SigningKeys
{
    /** A fetched list is asked for again, for a key id not yet known, at most this often (seconds). */
    private const REFETCH_INTERVAL = 60;

    /** @var array<int, array{keyId: string, publicKey: string, expiresAt?: ?string}>|null */
    private $entries;
    /** @var callable|null (): array of keys, as the service lists them */
    private $fetch;
    /** @var CacheStorage|null */
    private $storage;
    /** @var string */
    private $storageKey;
    /** @var callable(): int */
    private $clock;
    /** @var int|null */
    private $lastFetchAt;

    /**
     * @param array<int, array{keyId: string, publicKey: string, expiresAt?: ?string}>|null $pinned
     * @param callable(): int $clock
     */
    private function __construct(?array $pinned, ?callable $fetch, ?CacheStorage $storage, string $storageKey, callable $clock)
    {
        $this->entries = $pinned;
        $this->fetch = $fetch;
        $this->storage = $storage;
        $this->storageKey = $storageKey;
        $this->clock = $clock;
    }

    /**
     * Keys copied from the product in the dashboard (or `GET /public/v1/signing-key`): `[['keyId' => 'sig_…', 'publicKey' => '<base64>'], …]`.
     *
     * @param array<int, array{keyId: string, publicKey: string, expiresAt?: ?string}> $keys
     * @param callable(): int $clock
     */
    public static function pinned(array $keys, callable $clock): self
    {
        return new self(array_values($keys), null, null, '', $clock);
    }

    /**
     * Keys fetched by `$fetch` the first time they are needed and kept in `$storage`; fetched again for a key id not
     * yet known (a rotation), so a server able to answer that list can introduce a key of its own.
     *
     * @param callable(): int $clock
     */
    public static function trustOnFirstUse(callable $fetch, ?CacheStorage $storage, string $storageKey, callable $clock): self
    {
        return new self(null, $fetch, $storage, $storageKey, $clock);
    }

    /** The raw 32-byte key of `$keyId`, or null when it is not trusted or past its grace period. `$refresh`: may fetch. */
    public function find(string $keyId, bool $refresh): ?string
    {
        $entry = self::pick($this->known(), $keyId);
        $now = (int) call_user_func($this->clock);
        if ($entry === null && $refresh && $this->fetch !== null && ($this->lastFetchAt === null || $now - $this->lastFetchAt >= self::REFETCH_INTERVAL)) {
            $entry = self::pick($this->fetched(), $keyId);
        }
        if ($entry === null || (!empty($entry['expiresAt']) && strtotime((string) $entry['expiresAt']) <= $now)) {
            return null;
        }
        $raw = base64_decode((string) $entry['publicKey'], true);
        return is_string($raw) && strlen($raw) === SODIUM_CRYPTO_SIGN_PUBLICKEYBYTES ? $raw : null;
    }

    /** @return array<int, array<string, mixed>> */
    private function known(): array
    {
        if ($this->entries !== null) {
            return $this->entries;
        }
        $stored = $this->storage !== null ? $this->storage->get($this->storageKey) : null;
        $decoded = is_string($stored) ? json_decode($stored, true) : null;
        if (is_array($decoded)) {
            return $this->entries = $decoded;
        }
        return $this->fetch !== null ? $this->fetched() : [];
    }

    /** @return array<int, array<string, mixed>> */
    private function fetched(): array
    {
        $this->lastFetchAt = (int) call_user_func($this->clock);
        $kept = [];
        // Keys already trusted stay (a rotated-out key verifies during its grace period); new ones are added.
        foreach (array_merge($this->entries ?? [], call_user_func($this->fetch)) as $key) {
            if (isset($key['keyId'], $key['publicKey'])) {
                $kept[(string) $key['keyId']] = ['keyId' => (string) $key['keyId'], 'publicKey' => (string) $key['publicKey'], 'expiresAt' => $key['expiresAt'] ?? null];
            }
        }
        $this->entries = array_values($kept);
        if ($this->storage !== null) {
            $this->storage->set($this->storageKey, (string) json_encode($this->entries));
        }
        return $this->entries;
    }

    /**
     * @param array<int, array<string, mixed>> $entries
     * @return array<string, mixed>|null
     */
    private static function pick(array $entries, string $keyId): ?array
    {
        foreach ($entries as $entry) {
            if (is_array($entry) && ($entry['keyId'] ?? null) === $keyId) {
                return $entry;
            }
        }
        return null;
    }
}
