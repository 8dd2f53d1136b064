<?php

namespace Licensing\Exception;

/** A definite answer about the license key or the product: retrying will not change it. */
class LicenseException extends LicensingException
{
}
