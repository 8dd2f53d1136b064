<?php

namespace Licensing\Exception;

/**
 * A response the configured verifier refused. Never retried, never served from the cache. `reason()` says why (docs/api.md,
 * Signed answers): `unsigned` (a signature was due), `malformed` (not what the service signs), `tampered` (the digest or
 * the signature does not match), `wrong_nonce`, `stale` (`created` too far from the clock), `unknown_key`,
 * `wrong_license_key` / `wrong_domain` (signed for another request, as a relay would pass on), `refused` (a verifier of
 * your own).
 */
class SignatureException extends LicensingException
{
    /** @var string */
    private $reason;

    public function __construct(string $message = 'The response signature is invalid', ?int $status = null, ?\Throwable $previous = null, string $reason = 'refused')
    {
        parent::__construct('signature', $message, $status, null, [], $previous);
        $this->reason = $reason;
    }

    public function reason(): string
    {
        return $this->reason;
    }
}
