<?php

namespace Licensing\Cache;

/** One file per entry in a directory the PHP process can write (created on first write, mode 0700). */
final class FileStorage implements CacheStorage
{
    /** @var string */
    private $directory;

    public function __construct(string $directory)
    {
        $this->directory = rtrim($directory, '/\\');
    }

    private function path(string $key): string
    {
        return $this->directory . DIRECTORY_SEPARATOR . hash('sha256', $key) . '.json';
    }

    public function get(string $key): ?string
    {
        $path = $this->path($key);
        if (!is_file($path)) {
            return null;
        }
        $value = @file_get_contents($path);
        return $value === false ? null : $value;
    }

    public function set(string $key, string $value): void
    {
        if (!is_dir($this->directory)) {
            @mkdir($this->directory, 0700, true);
        }
        $path = $this->path($key);
        $temporary = $path . '.' . bin2hex(random_bytes(4));
        if (@file_put_contents($temporary, $value, LOCK_EX) !== false) {
            @rename($temporary, $path);
        }
    }

    public function delete(string $key): void
    {
        @unlink($this->path($key));
    }
}
