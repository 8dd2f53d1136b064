<?php

namespace Licensing\Signing;

use Licensing\Client;
use Licensing\Exception\Errors;
use Licensing\Exception\InvalidPublicKeyException;
use Licensing\Exception\InvalidRequestException;
use Licensing\Exception\ProductNotFoundException;
use Licensing\Exception\SignatureException;
use Licensing\Http\Response;
use Licensing\Verifier\ResponseVerifier;

/**
 * Checks the service's signed answers (RFC 9421 HTTP Message Signatures, Ed25519 with ext-sodium; docs/api.md
 * "Signed answers"). Exactly what the service signs is required:
 *
 *   Content-Digest: sha-256=:<base64 SHA-256 of the body bytes>:
 *   Signature-Input: sig1=("@status" "content-digest" "@method";req "@path";req);created=<unix s>;keyid="sig_…";alg="ed25519";nonce="…"
 *   Signature: sig1=:<base64 Ed25519 signature of the signature base>:
 *
 * The digest must match the raw body, `created` must be near the clock, the nonce must be the one the
 * call sent, and the key one the client trusts. The answers of validate, activate, deactivate and check are bound to
 * their request: the signature covers its method and path (`;req`), and the body must name the license key this call
 * sent and the domain it named, so the answer a relay got for its own key or site does not pass. Other signed answers
 * (offline files, the update check) cover `@status` and `content-digest` only.
 */
final class SignedAnswerVerifier implements ResponseVerifier
{
    private const LABEL = 'sig1';
    private const COMPONENTS = '("@status" "content-digest")';
    private const BOUND_COMPONENTS = '("@status" "content-digest" "@method";req "@path";req)';
    /** The operations whose answers are bound to their request (DECISIONS §13), on `/v1` and `/public/v1`. */
    private const BOUND_PATH = '#^(/public)?/v1/licenses/(validate|activate|deactivate|check|leases|leases/[^/]+/heartbeat)$#';

    /** @var SigningKeys */
    private $keys;
    /** @var callable(): int */
    private $clock;
    /** @var int */
    private $maxSkew;

    /** @param callable(): int $clock */
    public function __construct(SigningKeys $keys, callable $clock, int $maxSkew = 300)
    {
        $this->keys = $keys;
        $this->clock = $clock;
        $this->maxSkew = $maxSkew;
    }

    public function verify(array $request, Response $response): void
    {
        if (empty($request['signed'])) {
            return;
        }
        $status = $response->status;
        $refuse = static function (string $reason, string $message) use ($status): SignatureException {
            return new SignatureException($message, $status, null, $reason);
        };
        $input = self::member($response->header('signature-input'), self::LABEL);
        $signature = self::member($response->header('signature'), self::LABEL);
        if ($input === null || $signature === null) {
            if (self::unsignedByDesign($response)) {
                return;
            }
            throw $refuse('unsigned', 'The answer is not signed');
        }
        $bound = $request['method'] === 'POST' && preg_match(self::BOUND_PATH, $request['path']) === 1;
        $params = self::params($input, $bound ? self::BOUND_COMPONENTS : self::COMPONENTS);
        if (($params['alg'] ?? null) !== 'ed25519' || !is_string($params['keyid'] ?? null) || !is_int($params['created'] ?? null)) {
            throw $refuse('malformed', 'Unexpected signature parameters: ' . $input);
        }
        $sentNonce = $request['headers']['signature-nonce'] ?? null;
        if ($sentNonce !== null && ($params['nonce'] ?? null) !== $sentNonce) {
            throw $refuse('wrong_nonce', 'The answer is signed for another request (nonce)');
        }
        $digest = (string) $response->header('content-digest');
        if (self::member($digest, 'sha-256') !== ':' . base64_encode(hash('sha256', $response->body, true)) . ':') {
            throw $refuse('tampered', 'Content-Digest does not match the body');
        }
        if (abs((int) call_user_func($this->clock) - $params['created']) > $this->maxSkew) {
            throw $refuse('stale', 'The answer is too old, or the clock is off');
        }
        $key = $this->keys->find($params['keyid'], true);
        if ($key === null) {
            throw $refuse('unknown_key', 'The answer is signed by an unknown key (' . $params['keyid'] . ')');
        }
        $bytes = base64_decode(trim($signature, ':'), true);
        $lines = ['"@status": ' . $status, '"content-digest": ' . $digest];
        if ($bound) {
            $lines[] = '"@method";req: ' . $request['method'];
            $lines[] = '"@path";req: ' . $request['path'];
        }
        $lines[] = '"@signature-params": ' . $input;
        if (!is_string($bytes) || strlen($bytes) !== SODIUM_CRYPTO_SIGN_BYTES || !sodium_crypto_sign_verify_detached($bytes, implode("\n", $lines), $key)) {
            throw $refuse('tampered', 'The answer signature does not verify');
        }
        $mismatch = $bound ? self::bindingMismatch($request['body'], $response->body) : null;
        if ($mismatch !== null) {
            throw $refuse('wrong_' . $mismatch, 'The answer is signed for another request (' . $mismatch . ')');
        }
    }

    /**
     * Which field of a bound answer names something else than the request did: the license key exactly as sent, and
     * the domain normalized as the service normalizes it (`domain`, else `site`; none named, none answered).
     */
    private static function bindingMismatch(?string $requestBody, string $answerBody): ?string
    {
        $sent = json_decode((string) $requestBody, true);
        $answer = json_decode($answerBody, true);
        if (!is_array($sent) || !is_array($answer) || !is_string($sent['license_key'] ?? null) || ($answer['license_key'] ?? null) !== $sent['license_key']) {
            return 'license_key';
        }
        $named = null;
        foreach (['domain', 'site'] as $field) {
            if ($named === null && is_string($sent[$field] ?? null) && trim($sent[$field]) !== '') {
                $named = Client::normalizeDomain($sent[$field]);
            }
        }
        return ($answer['domain'] ?? null) === $named ? null : 'domain';
    }

    /** A member of a structured-field dictionary (`label=value, …`), as written; the service's values hold no commas. */
    private static function member(?string $header, string $label): ?string
    {
        foreach (explode(',', (string) $header) as $part) {
            $part = trim($part);
            if (strpos($part, $label . '=') === 0) {
                return substr($part, strlen($label) + 1);
            }
        }
        return null;
    }

    /**
     * The parameters of `sig1`'s inner list, which must cover exactly `$components`, what the service signs for the route.
     *
     * @return array<string, string|int>
     */
    private static function params(string $input, string $components): array
    {
        if (strpos($input, $components) !== 0) {
            return [];
        }
        $rest = substr($input, strlen($components));
        if (!preg_match('/^(?:;[a-z]+=(?:\d+|"[A-Za-z0-9._~+\/=-]*"))*$/', $rest)) {
            return [];
        }
        preg_match_all('/;([a-z]+)=(\d+|"[^"]*")/', $rest, $matches, PREG_SET_ORDER);
        $params = [];
        foreach ($matches as $match) {
            $params[$match[1]] = $match[2][0] === '"' ? substr($match[2], 1, -1) : (int) $match[2];
        }
        return $params;
    }

    /**
     * The answers the service gives before it knows the product, which it cannot sign (docs/api.md): a 429, and
     * refusals of the request itself (bad input, an unknown public key, the update check's unknown slug). Every other
     * unsigned answer, a "valid" or a license refusal above all, is refused.
     */
    private static function unsignedByDesign(Response $response): bool
    {
        if ($response->status === 429) {
            return true;
        }
        if ($response->status < 400 || $response->status >= 500) {
            return false;
        }
        $body = json_decode($response->body, true);
        if (!is_array($body)) {
            return false;
        }
        $error = Errors::fromAnswer($response->status, $body);
        return $error instanceof InvalidRequestException || $error instanceof InvalidPublicKeyException || $error instanceof ProductNotFoundException;
    }
}
