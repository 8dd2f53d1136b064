<?php

namespace Licensing\Exception;

/** `License does not belong to this product` (400): not a key of the `product_slug` the client names. */
class WrongProductException extends LicenseException
{
    /** @param mixed $body */
    public function __construct(string $message = 'License does not belong to this product', ?int $status = null, $body = null, ?\Throwable $previous = null)
    {
        parent::__construct('wrong_product', $message, $status, $body, [], $previous);
    }
}
