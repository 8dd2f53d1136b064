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
 * and, in front of the local stack (SCRIPT_SERVER_UPSTREAM), as a lost answer or a man in the middle would:
 *   forward      every request to the stack, its answer passed on unchanged
 *   forwardfail  every request to the stack; the first answer is replaced by a 503 (the service acted, the client never heard)
 *   forwardtamper every request to the stack; `"seats":2` in the answer becomes `"seats":9`
 *   forwardunsigned every request to the stack; the answer's signature headers are dropped
 *   forwardrelay every request to the stack with the JSON body's fields replaced by those of `<scenario>.json` (ScriptServer::relay),
 *                as a relay asking with its own license key or site would; the answer passed on unchanged
 * The log of a forwarded request also holds the stack's answer (`upstream`: status and headers).
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
$count = is_file($log) ? count(array_filter(explode("\n", (string) file_get_contents($log)))) : 0;
$body = (string) file_get_contents('php://input');
$record = static function (array $extra = []) use ($log, $rest, $headers, $body): void {
    $fp = fopen($log, 'a');
    flock($fp, LOCK_EX);
    fwrite($fp, json_encode(array_merge(['at' => microtime(true), 'path' => $rest, 'headers' => $headers, 'body' => $body], $extra)) . "\n");
    flock($fp, LOCK_UN);
    fclose($fp);
};

if (strpos($behaviour, 'forward') === 0) {
    $sent = [];
    foreach (['content-type', 'idempotency-key', 'signature-nonce'] as $name) {
        if (isset($headers[$name]) && $headers[$name] !== '') {
            $sent[] = $name . ': ' . $headers[$name];
        }
    }
    $query = isset($_SERVER['QUERY_STRING']) && $_SERVER['QUERY_STRING'] !== '' ? '?' . $_SERVER['QUERY_STRING'] : '';
    $handle = curl_init(getenv('SCRIPT_SERVER_UPSTREAM') . $rest . $query);
    curl_setopt_array($handle, [CURLOPT_CUSTOMREQUEST => $_SERVER['REQUEST_METHOD'], CURLOPT_HTTPHEADER => $sent, CURLOPT_RETURNTRANSFER => true, CURLOPT_HEADER => true]);
    if ($behaviour === 'forwardrelay' && $body !== '') {
        $body = (string) json_encode(array_merge((array) json_decode($body, true), (array) json_decode((string) file_get_contents($dir . '/' . $key . '.json'), true)));
    }
    if ($body !== '') {
        curl_setopt($handle, CURLOPT_POSTFIELDS, $body);
    }
    $raw = (string) curl_exec($handle);
    $status = (int) curl_getinfo($handle, CURLINFO_RESPONSE_CODE);
    $headerSize = (int) curl_getinfo($handle, CURLINFO_HEADER_SIZE);
    curl_close($handle);
    $answer = substr($raw, $headerSize);
    $upstream = [];
    foreach (explode("\r\n", substr($raw, 0, $headerSize)) as $line) {
        if (strpos($line, ':') !== false) {
            [$name, $value] = explode(':', $line, 2);
            $upstream[strtolower($name)] = trim($value);
        }
    }
    $record(['upstream' => ['status' => $status, 'headers' => $upstream]]);
    $passed = ['content-type', 'content-digest', 'date', 'signature', 'signature-input', 'idempotent-replayed', 'retry-after'];
    if ($behaviour === 'forwardfail' && $count === 0) {
        http_response_code(503);
        header('Content-Type: application/json');
        echo '{"error":"Service unavailable"}';
        exit;
    }
    if ($behaviour === 'forwardtamper') {
        $answer = str_replace('"seats":2', '"seats":9', $answer);
    }
    if ($behaviour === 'forwardunsigned') {
        $passed = ['content-type', 'date'];
    }
    http_response_code($status);
    foreach ($passed as $name) {
        if (isset($upstream[$name])) {
            header($name . ': ' . $upstream[$name]);
        }
    }
    echo $answer;
    exit;
}
$record();

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
