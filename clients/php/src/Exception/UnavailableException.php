<?php

namespace Licensing\Exception;

/** No usable answer for this call; a validation may fall back to its cache or an offline file. */
class UnavailableException extends LicensingException
{
}
