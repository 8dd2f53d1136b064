<?php

namespace Licensing\Cache;

/**
 * The last good validation of each key, used (within the grace period) when the service cannot be reached. Never after
 * a definite "invalid" (that answer deletes the entry), never past the license's expiry, never after the clock went back.
 */
final class ValidationCache
{
    /** A clock turned back by more than this refuses the grace. */
    private const CLOCK_SKEW = 300;

    /** @var CacheStorage */
    private $storage;
    /** @var int */
    private $gracePeriod;
    /** @var string */
    private $prefix;

    /** @param int $gracePeriod Seconds after the last good answer that it may stand in (default 72 hours). */
    public function __construct(?CacheStorage $storage = null, int $gracePeriod = 259200, string $prefix = 'licensing:')
    {
        $this->storage = $storage ?: new MemoryStorage();
        $this->gracePeriod = $gracePeriod;
        $this->prefix = $prefix;
    }

    /** Where entries are kept (fetched signing keys are kept there too, by default). */
    public function storage(): CacheStorage
    {
        return $this->storage;
    }

    public function gracePeriod(): int
    {
        return $this->gracePeriod;
    }

    private function key(string $scope, string $licenseKey): string
    {
        return $this->prefix . $scope . ':' . $licenseKey;
    }

    /**
     * @param array<string, mixed> $license
     * @param array<string, mixed> $product
     */
    public function store(string $scope, string $licenseKey, array $license, array $product, int $checkedAt): void
    {
        $entry = ['v' => 1, 'license' => $license, 'product' => $product, 'checkedAt' => $checkedAt, 'lastSeenAt' => $checkedAt];
        try {
            $this->storage->set($this->key($scope, $licenseKey), (string) json_encode($entry));
        } catch (\Throwable $e) {
            // A cache that cannot be written only loses the grace.
        }
    }

    public function forget(string $scope, string $licenseKey): void
    {
        try {
            $this->storage->delete($this->key($scope, $licenseKey));
        } catch (\Throwable $e) {
        }
    }

    /**
     * The entry usable now, or why not.
     *
     * @return array{entry?: array<string, mixed>, refused?: string} `refused`: none, expired-grace, clock, license-expired
     */
    public function lookup(string $scope, string $licenseKey, int $now): array
    {
        $key = $this->key($scope, $licenseKey);
        try {
            $raw = $this->storage->get($key);
        } catch (\Throwable $e) {
            return ['refused' => 'none'];
        }
        $entry = is_string($raw) && $raw !== '' ? json_decode($raw, true) : null;
        if (!is_array($entry) || ($entry['v'] ?? null) !== 1 || !isset($entry['license']['key']) || $entry['license']['key'] !== $licenseKey) {
            return ['refused' => 'none'];
        }
        if ($now + self::CLOCK_SKEW < (int) $entry['lastSeenAt'] || $now + self::CLOCK_SKEW < (int) $entry['checkedAt']) {
            return ['refused' => 'clock', 'entry' => $entry];
        }
        if ($now - (int) $entry['checkedAt'] > $this->gracePeriod) {
            return ['refused' => 'expired-grace', 'entry' => $entry];
        }
        $expiresAt = $entry['license']['expiresAt'] ?? null;
        if (is_string($expiresAt) && strtotime($expiresAt) !== false && strtotime($expiresAt) <= $now) {
            return ['refused' => 'license-expired', 'entry' => $entry];
        }
        if ($now > (int) $entry['lastSeenAt']) {
            $entry['lastSeenAt'] = $now;
            try {
                $this->storage->set($key, (string) json_encode($entry));
            } catch (\Throwable $e) {
            }
        }
        return ['entry' => $entry];
    }
}
