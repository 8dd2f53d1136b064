<?php

namespace Licensing\Verifier;

use Licensing\Exception\SignatureException;
use Licensing\Http\Response;

/**
 * Checks an answer before the client parses it (the built-in one, `Signing\SignedAnswerVerifier`, checks the service's
 * RFC 9421 signatures: the `signing` option). Throw SignatureException to refuse it: the call fails, is not retried and does not fall back to
 * the validation cache.
 */
interface ResponseVerifier
{
    /**
     * @param array{method: string, url: string, path: string, headers: array<string, string>, body: ?string, signed: bool} $request As sent;
     *   `path`: the route's path (`/public/v1/licenses/validate`) as the service receives it, without the base URL's own path or the query;
     *   `signed`: the service signs this route's answers (validate, activate, deactivate, check, offline files, update check).
     * @throws SignatureException
     */
    public function verify(array $request, Response $response): void;
}
