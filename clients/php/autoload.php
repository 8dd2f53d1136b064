<?php
/**
 * The library without Composer: `require __DIR__ . '/path/to/licensing/autoload.php';` loads the `Licensing\`
 * classes from `src/` on first use (PSR-4, as composer.json declares).
 */
spl_autoload_register(static function (string $class): void {
    $prefix = 'Licensing\\';
    if (strncmp($class, $prefix, strlen($prefix)) !== 0) {
        return;
    }
    $file = __DIR__ . '/src/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
    if (is_file($file)) {
        require $file;
    }
});
