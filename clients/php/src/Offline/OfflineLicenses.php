<?php

namespace Licensing\Offline;

use Licensing\Exception\OfflineLicenseException;
use Licensing\Signing\SigningKeys;
use Licensing\ValidationResult;

/**
 * The offline fallback: a stored offline license file (`POST /public/v1/licenses/offline`) stands in for the service
 * when it cannot be reached, once its signature, site, validity, key and product check out.
 */
final class OfflineLicenses
{
    /** A clock this far before the file's `issuedAt` has been turned back (to stretch the file's window). */
    private const CLOCK_SKEW = 300;

    private const MESSAGES = [
        LicenseFile::TAMPERED => 'The offline license file is malformed or its signature does not verify',
        LicenseFile::EXPIRED => 'The offline license file has expired',
        LicenseFile::WRONG_DOMAIN => 'The offline license file is for another site',
        LicenseFile::UNKNOWN_KEY => 'The offline license file is signed by a key this client does not trust',
    ];

    /** @var callable(): ?string */
    private $load;
    /** @var callable(string): void|null */
    private $save;
    /** @var SigningKeys */
    private $keys;

    /**
     * @param callable(): ?string $load reads the stored file
     * @param callable(string): void|null $save keeps a file the client fetched
     */
    public function __construct(callable $load, ?callable $save, SigningKeys $keys)
    {
        $this->load = $load;
        $this->save = $save;
        $this->keys = $keys;
    }

    /**
     * The stored file's answer for this key and site.
     *
     * @throws OfflineLicenseException saying why there is none (`reason()`)
     */
    public function validate(string $licenseKey, ?string $domain, ?string $productSlug, int $now): ValidationResult
    {
        if ($domain === null || $domain === '') {
            throw new OfflineLicenseException('An offline license file is checked against the site: pass domain', null, 'not_configured');
        }
        $file = call_user_func($this->load);
        if (!is_string($file) || $file === '') {
            throw new OfflineLicenseException('No offline license file is stored', null, 'missing');
        }
        $checked = LicenseFile::check($file, $this->keys, $domain, $now);
        if ($checked['verdict'] !== LicenseFile::VALID) {
            throw new OfflineLicenseException(self::MESSAGES[$checked['verdict']], null, $checked['verdict']);
        }
        $payload = $checked['payload'];
        if ($payload['licenseKey'] !== $licenseKey) {
            throw new OfflineLicenseException('The offline license file is for another license key', null, 'other_license');
        }
        if ($productSlug !== null && $payload['productSlug'] !== $productSlug) {
            throw new OfflineLicenseException('The offline license file is for another product', null, 'other_product');
        }
        if ($now + self::CLOCK_SKEW < LicenseFile::seconds($payload['issuedAt'])) {
            throw new OfflineLicenseException('The clock is earlier than the offline license file was issued', null, 'clock');
        }
        return ValidationResult::offline($payload);
    }

    /**
     * Checks a file the service just issued for `$domain` (its keys may be fetched again) and keeps it.
     *
     * @throws OfflineLicenseException when it does not verify
     */
    public function keep(string $file, string $domain, int $now): void
    {
        $checked = LicenseFile::check($file, $this->keys, $domain, $now, true);
        if ($checked['verdict'] !== LicenseFile::VALID) {
            throw new OfflineLicenseException("The service's offline license file does not verify (" . $checked['verdict'] . ')', null, $checked['verdict']);
        }
        if ($this->save !== null) {
            call_user_func($this->save, $file);
        }
    }
}
