<?php

namespace Licensing\Tests\Support;

/**
 * A local HTTP server (`php -S` with tests/Support/router.php, four workers) that answers as a slow, failing or
 * rate-limiting service would, or stands in front of the local stack as a lossy link or a man in the middle. The client's base URL `{url}/s/<scenario>` picks the behaviour; every request is
 * logged, so tests can see attempts, their times and their headers. It runs in a process group of its own (`setsid`):
 * the workers outlive a parent stopped alone, so `stop()` ends the group and fails if anything of it still runs.
 */
final class ScriptServer
{
    /** @var string */
    public $url;
    /** @var string */
    private $directory;
    /** @var resource */
    private $process;
    /** @var int the server's pid, also its process group's id */
    private $group;

    public function __construct()
    {
        $this->directory = sys_get_temp_dir() . '/licensing-script-' . bin2hex(random_bytes(4));
        mkdir($this->directory);
        $port = self::freePort();
        $command = ['setsid', PHP_BINARY, '-S', '127.0.0.1:' . $port, __DIR__ . '/router.php'];
        // The forward* behaviours stand in front of the local stack (Stack::baseUrl()).
        $environment = array_merge(getenv(), ['PHP_CLI_SERVER_WORKERS' => '4', 'SCRIPT_SERVER_DIR' => $this->directory, 'SCRIPT_SERVER_UPSTREAM' => (string) Stack::baseUrl()]);
        $process = proc_open($command, [0 => ['file', '/dev/null', 'r'], 1 => ['file', '/dev/null', 'w'], 2 => ['file', '/dev/null', 'w']], $pipes, null, $environment);
        if (!is_resource($process)) {
            throw new \RuntimeException('could not start php -S');
        }
        $this->process = $process;
        $this->group = (int) proc_get_status($process)['pid'];
        $this->url = 'http://127.0.0.1:' . $port;
        $deadline = microtime(true) + 10;
        while (microtime(true) < $deadline) {
            $socket = @fsockopen('127.0.0.1', $port, $errno, $errstr, 0.2);
            if ($socket) {
                fclose($socket);
                // setsid ran before PHP did, in the same process: its pid leads the group.
                if (posix_getpgid($this->group) !== $this->group) {
                    throw new \RuntimeException('php -S is not in a process group of its own');
                }
                return;
            }
            usleep(50000);
        }
        throw new \RuntimeException('php -S did not start');
    }

    public static function freePort(): int
    {
        $server = stream_socket_server('tcp://127.0.0.1:0', $errno, $errstr);
        if ($server === false) {
            throw new \RuntimeException($errstr);
        }
        $name = (string) stream_socket_get_name($server, false);
        fclose($server);
        return (int) substr($name, strrpos($name, ':') + 1);
    }

    /** A base URL with the given behaviour; `$id` keeps the counters of one test apart. */
    public function scenario(string $name, ?string $id = null): string
    {
        return $this->url . '/s/' . $name . '-' . ($id ?? bin2hex(random_bytes(4)));
    }

    /**
     * A base URL in front of the local stack that asks the service with these body fields in place of the client's
     * (`forwardrelay`): a relay with its own license key or site.
     *
     * @param array<string, string> $fields
     */
    public function relay(array $fields): string
    {
        $url = $this->scenario('forwardrelay');
        file_put_contents($this->directory . '/' . basename((string) parse_url($url, PHP_URL_PATH)) . '.json', (string) json_encode($fields));
        return $url;
    }

    /**
     * The requests one scenario URL received.
     *
     * @return array<int, array{at: float, path: string, headers: array<string, string>, body: string, upstream?: array{status: int, headers: array<string, string>}}>
     */
    public function log(string $scenarioUrl): array
    {
        $key = basename(parse_url($scenarioUrl, PHP_URL_PATH));
        $file = $this->directory . '/' . $key . '.log';
        if (!is_file($file)) {
            return [];
        }
        $lines = array_filter(explode("\n", (string) file_get_contents($file)));
        return array_values(array_map(static function (string $line): array {
            return json_decode($line, true);
        }, $lines));
    }

    public function stop(): void
    {
        posix_kill(-$this->group, SIGTERM);
        if (!$this->groupEndedWithin(5.0)) {
            posix_kill(-$this->group, SIGKILL);
            if (!$this->groupEndedWithin(5.0)) {
                throw new \RuntimeException("php -S left processes of group {$this->group} running");
            }
        }
        proc_close($this->process);
        foreach ((array) glob($this->directory . '/*') as $file) {
            @unlink((string) $file);
        }
        @rmdir($this->directory);
    }

    private function groupEndedWithin(float $seconds): bool
    {
        $deadline = microtime(true) + $seconds;
        do {
            proc_get_status($this->process); // reaps the server once it has ended
            if (!self::groupRunning($this->group)) {
                return true;
            }
            usleep(50000);
        } while (microtime(true) < $deadline);
        return false;
    }

    /** Whether a process of the group still runs; a zombie (ended, not yet reaped) does not count. */
    private static function groupRunning(int $group): bool
    {
        if (!is_dir('/proc/self')) {
            return posix_kill(-$group, 0);
        }
        foreach ((array) glob('/proc/[0-9]*/stat') as $file) {
            $stat = @file_get_contents((string) $file);
            if ($stat === false) {
                continue;
            }
            // `pid (comm) state ppid pgrp …`: the command name may hold spaces and parentheses.
            $fields = explode(' ', substr($stat, strrpos($stat, ')') + 2));
            if ((int) $fields[2] === $group && $fields[0] !== 'Z') {
                return true;
            }
        }
        return false;
    }
}
