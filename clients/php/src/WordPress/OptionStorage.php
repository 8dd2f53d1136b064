<?php

namespace Licensing\WordPress;

use Licensing\Cache\CacheStorage;

/**
 * The validation cache in non-autoloaded options (site options on multisite): never loaded on every page, and an
 * object cache cannot evict it the way it can evict a transient.
 */
final class OptionStorage implements CacheStorage
{
    /** @var string */
    private $prefix;

    public function __construct(string $prefix = 'licensing_cache_')
    {
        $this->prefix = $prefix;
    }

    private function name(string $key): string
    {
        return $this->prefix . md5($key);
    }

    public function get(string $key): ?string
    {
        $value = get_site_option($this->name($key), null);
        return is_string($value) ? $value : null;
    }

    public function set(string $key, string $value): void
    {
        update_site_option($this->name($key), $value);
    }

    public function delete(string $key): void
    {
        delete_site_option($this->name($key));
    }
}
