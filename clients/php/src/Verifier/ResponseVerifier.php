<?php

namespace Licensing\Verifier;

use Licensing\Exception\SignatureException;
use Licensing\Http\Response;

/**
 * Checks an answer before the client parses it (signed responses: RFC 9421 `Signature`, `Signature-Input`,
 * `Content-Digest`). Throw SignatureException to refuse it: the call fails, is not retried and does not fall back to
 * the validation cache.
 */
interface ResponseVerifier
{
    /**
     * @param array{method: string, url: string, headers: array<string, string>, body: ?string} $request As sent.
     * @throws SignatureException
     */
    public function verify(array $request, Response $response): void;
}
