<?php

namespace Licensing\Signing;

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
 *   Signature-Input: sig1=("@status" "content-digest");created=<unix s>;keyid="sig_…";alg="ed25519";nonce="…"
 *   Signature: sig1=:<base64 Ed25519 signature of the signature base>:
 *
 * The digest must match the raw body, `created` must be near the clock, the nonce must be the one the
 * call sent, and the key one the client trusts.
 */
final class SignedAnswerVerifier implements ResponseVerifier
{
    private const LABEL = 'sig1';
    private const COMPONENTS = '("@status" "content-digest")';

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
        $input = self::member($response->header('signature-input'), self::LABEL);
        $signature = self::member($response->header('signature'), self::LABEL);
        if ($input === null || $signature === null) {
            if (self::unsignedByDesign($response)) {
                return;
            }
            throw new SignatureException('The answer is not signed', $status);
        }
        $params = self::params($input);
        if (($params['alg'] ?? null) !== 'ed25519' || !is_string($params['keyid'] ?? null) || !is_int($params['created'] ?? null)) {
            throw new SignatureException('Unexpected signature parameters: ' . $input, $status);
        }
        $sentNonce = $request['headers']['signature-nonce'] ?? null;
        if ($sentNonce !== null && ($params['nonce'] ?? null) !== $sentNonce) {
            throw new SignatureException('The answer is signed for another request (nonce)', $status);
        }
        $digest = (string) $response->header('content-digest');
        if (self::member($digest, 'sha-256') !== ':' . base64_encode(hash('sha256', $response->body, true)) . ':') {
            throw new SignatureException('Content-Digest does not match the body', $status);
        }
        if (abs((int) call_user_func($this->clock) - $params['created']) > $this->maxSkew) {
            throw new SignatureException('The answer is too old, or the clock is off', $status);
        }
        $key = $this->keys->find($params['keyid'], true);
        if ($key === null) {
            throw new SignatureException('The answer is signed by an unknown key (' . $params['keyid'] . ')', $status);
        }
        $bytes = base64_decode(trim($signature, ':'), true);
        $base = implode("\n", ['"@status": ' . $status, '"content-digest": ' . $digest, '"@signature-params": ' . $input]);
        if (!is_string($bytes) || strlen($bytes) !== SODIUM_CRYPTO_SIGN_BYTES || !sodium_crypto_sign_verify_detached($bytes, $base, $key)) {
            throw new SignatureException('The answer signature does not verify', $status);
        }
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
     * The parameters of `sig1`'s inner list, which must cover exactly what the service signs.
     *
     * @return array<string, string|int>
     */
    private static function params(string $input): array
    {
        if (strpos($input, self::COMPONENTS) !== 0) {
            return [];
        }
        $rest = substr($input, strlen(self::COMPONENTS));
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
