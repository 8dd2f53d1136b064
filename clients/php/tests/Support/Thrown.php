<?php

namespace Licensing\Tests\Support;

use Licensing\Exception\LicensingException;

/** The exception a call throws, for assertions on its type, code and message. */
final class Thrown
{
    public static function by(callable $call): LicensingException
    {
        try {
            $call();
        } catch (LicensingException $e) {
            return $e;
        }
        throw new \RuntimeException('expected an exception');
    }
}
