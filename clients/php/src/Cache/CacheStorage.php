<?php

namespace Licensing\Cache;

/** Where the validation cache keeps its entries (strings of JSON). */
interface CacheStorage
{
    public function get(string $key): ?string;

    public function set(string $key, string $value): void;

    public function delete(string $key): void;
}
