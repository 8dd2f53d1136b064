<?php

namespace Licensing\Exception;

/** `Product not found` (404) from the update check: unknown or deleted slug. */
class ProductNotFoundException extends LicenseException
{
    /** @param mixed $body */
    public function __construct(string $message = 'Product not found', ?int $status = null, $body = null, ?\Throwable $previous = null)
    {
        parent::__construct('product_not_found', $message, $status, $body, [], $previous);
    }
}
