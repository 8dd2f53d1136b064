<?php

namespace Licensing\WordPress;

/**
 * What the updater tells the service about this site, and who may manage its license. On multisite the network is
 * one site for licensing: the network's main address, managed from the network admin (subsites never activate).
 */
final class Site
{
    /** The address activations and update checks name: the network's main site on multisite, else this site. */
    public static function url(): string
    {
        return is_multisite() ? network_home_url() : home_url();
    }

    /** The capability that manages the license: the network's administrators on multisite. */
    public static function licenseCapability(): string
    {
        return is_multisite() ? 'manage_network_options' : 'manage_options';
    }

    /** Whether this admin screen is where the license is managed (the network admin on multisite). */
    public static function managesLicenseHere(): bool
    {
        return !is_multisite() || is_network_admin();
    }

    /** The PHP version, as the service compares it (`8.2.12`, without a distribution's suffix). */
    public static function phpVersion(): string
    {
        return sprintf('%d.%d.%d', PHP_MAJOR_VERSION, PHP_MINOR_VERSION, PHP_RELEASE_VERSION);
    }

    /** WordPress's version (`6.5`, `6.6-RC1`). */
    public static function wordPressVersion(): string
    {
        return (string) get_bloginfo('version');
    }
}
