<?php

namespace Licensing\Exception;

/** Maps an answer of the service to its typed exception (DECISIONS §4 messages). */
final class Errors
{
    /** @var array<string, class-string<LicenseException>> */
    private const BY_MESSAGE = [
        'License has expired' => LicenseExpiredException::class,
        'License expired' => LicenseExpiredException::class,
        'License is suspended' => LicenseSuspendedException::class,
        'License has been revoked' => LicenseRevokedException::class,
        'License seat limit reached' => SeatLimitReachedException::class,
        'All seats are in use' => SeatsInUseException::class,
        'Lease not found' => LeaseNotFoundException::class,
        'Machine holds no live lease' => NoLeaseException::class,
        'License key not found' => LicenseNotFoundException::class,
        'License does not belong to this product' => WrongProductException::class,
        'License does not cover this product' => ProductNotCoveredException::class,
        'Invalid public_key' => InvalidPublicKeyException::class,
        'Activation not found' => ActivationNotFoundException::class,
        'Product not found' => ProductNotFoundException::class,
    ];

    /** @param mixed $body The decoded JSON body of a 4xx answer. */
    public static function fromAnswer(int $status, $body): LicensingException
    {
        $message = is_array($body) && isset($body['error']) && is_string($body['error']) ? $body['error'] : 'HTTP ' . $status;
        if (isset(self::BY_MESSAGE[$message])) {
            $class = self::BY_MESSAGE[$message];
            return new $class($message, $status, $body);
        }
        $details = is_array($body) && isset($body['details']) && is_array($body['details']) ? $body['details'] : [];
        return new InvalidRequestException($message, $status, $body, $details);
    }
}
