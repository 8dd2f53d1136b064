<?php

namespace Licensing\Exception;

/**
 * `License does not cover this product` (403): a bundle's key (DECISIONS §23) used for a product the bundle does not
 * include, or no longer includes.
 */
class ProductNotCoveredException extends LicenseException
{
    /** @param mixed $body */
    public function __construct(string $message = 'License does not cover this product', ?int $status = null, $body = null, ?\Throwable $previous = null)
    {
        parent::__construct('not_covered', $message, $status, $body, [], $previous);
    }
}
