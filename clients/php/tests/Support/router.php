<?php
/**
 * Router of ScriptServer: `/s/<behaviour>-<id>/<the client's path>`. Behaviours:
 *   ok           200 with the answer the client's path expects
 *   stall        never answers (sleeps 6 s)
 *   stallbody    sends the headers, then stalls the body
 *   flaky        503 (Retry-After: 0) then 200
 *   html502      502 with an HTML page, always
 *   html200      200 with an HTML page
 *   down503      503, always
 *   ratelimited  429 with Retry-After: 1, then 200
 *   ratelimitlong 429 with Retry-After: 30, always
 *   validthendown 200 (valid) the first time, then 503
 */
$dir = getenv('SCRIPT_SERVER_DIR');
$path = (string) parse_url($_SERVER['REQUEST_URI'], PHP_URL_PATH);
if (!preg_match('#^/s/([a-z0-9]+)-([a-z0-9]+)(/.*)?$#', $path, $match)) {
    http_response_code(404);
    exit;
}
$behaviour = $match[1];
$key = $match[1] . '-' . $match[2];
$rest = isset($match[3]) ? $match[3] : '/';
$headers = [];
foreach ($_SERVER as $name => $value) {
    if (strpos($name, 'HTTP_') === 0) {
        $headers[strtolower(str_replace('_', '-', substr($name, 5)))] = $value;
    }
}
$headers['content-type'] = isset($_SERVER['CONTENT_TYPE']) ? $_SERVER['CONTENT_TYPE'] : '';
$log = $dir . '/' . $key . '.log';
$fp = fopen($log, 'a');
flock($fp, LOCK_EX);
$count = is_file($log) ? count(array_filter(explode("\n", (string) file_get_contents($log)))) : 0;
fwrite($fp, json_encode(['at' => microtime(true), 'path' => $rest, 'headers' => $headers, 'body' => file_get_contents('php://input')]) . "\n");
flock($fp, LOCK_UN);
fclose($fp);

$answers = [
    '/public/v1/licenses/validate' => ['valid' => true, 'license' => ['key' => 'ACME-AAAA-BBBB-CCCC-DDDD', 'status' => 'active', 'seats' => 2, 'activatedCount' => 1, 'expiresAt' => null], 'product' => ['id' => 'prd_aaaaaaaaaaaaaaaaaaaaaaaa', 'name' => 'Acme', 'slug' => 'acme']],
    '/public/v1/licenses/activate' => ['success' => true, 'activation_id' => 'act_aaaaaaaaaaaaaaaaaaaaaaaa', 'activated_at' => '2026-01-01T00:00:00.000Z'],
    '/public/v1/licenses/deactivate' => ['success' => true],
    '/public/v1/plans' => ['plans' => []],
];
$json = static function (int $status, $body, array $extra = []): void {
    http_response_code($status);
    header('Content-Type: application/json');
    foreach ($extra as $line) {
        header($line);
    }
    echo json_encode($body);
};
$ok = static function () use ($json, $answers, $rest): void {
    $json(200, isset($answers[$rest]) ? $answers[$rest] : ['ok' => true]);
};
$down = static function () use ($json): void {
    $json(503, ['error' => 'Service temporarily unavailable'], ['Retry-After: 0']);
};

switch ($behaviour) {
    case 'ok':
        $ok();
        break;
    case 'stall':
        sleep(6);
        $ok();
        break;
    case 'stallbody':
        header('Content-Type: application/json');
        header('Content-Length: 100');
        echo '{"valid":';
        flush();
        sleep(6);
        break;
    case 'flaky':
        $count === 0 ? $down() : $ok();
        break;
    case 'html502':
        http_response_code(502);
        header('Content-Type: text/html');
        echo '<html><body>Bad gateway</body></html>';
        break;
    case 'html200':
        header('Content-Type: text/html');
        echo '<html><body>Sign in to the Wi-Fi</body></html>';
        break;
    case 'down503':
        $down();
        break;
    case 'ratelimited':
        $count === 0 ? $json(429, ['error' => 'Too many requests'], ['Retry-After: 1']) : $ok();
        break;
    case 'ratelimitlong':
        $json(429, ['valid' => false, 'error' => 'Too many requests'], ['Retry-After: 30']);
        break;
    case 'validthendown':
        $count === 0 ? $ok() : $down();
        break;
    default:
        http_response_code(404);
}
