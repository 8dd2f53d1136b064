<?php

namespace Licensing\Cache;

/** The default: entries live as long as the PHP process (one request, under PHP-FPM). */
final class MemoryStorage implements CacheStorage
{
    /** @var array<string, string> */
    private $items = [];

    public function get(string $key): ?string
    {
        return isset($this->items[$key]) ? $this->items[$key] : null;
    }

    public function set(string $key, string $value): void
    {
        $this->items[$key] = $value;
    }

    public function delete(string $key): void
    {
        unset($this->items[$key]);
    }
}
