<?php

namespace Licensing\WordPress;

use Licensing\Exception\LicensingException;

/**
 * "Roll back" under the plugin's row: a screen listing the versions the license may have (`GET /v1/wp/versions`,
 * asked only when the screen is opened), and the chosen one installed by WordPress's own `Plugin_Upgrader`, as an
 * update is (maintenance mode, the plugin deactivated and reactivated, the folder name fixed by the updater).
 * The screen is WordPress's update.php (`update.php?action=licensing_rollback_{slug}`), nonce and `update_plugins`
 * checked.
 */
final class Rollback
{
    /** @var Updater */
    private $updater;

    public function __construct(Updater $updater)
    {
        $this->updater = $updater;
    }

    public function register(): void
    {
        add_filter('plugin_row_meta', [$this, 'addLink'], 11, 2);
        add_action('update-custom_' . $this->action(), [$this, 'screen']);
    }

    private function action(): string
    {
        return 'licensing_rollback_' . $this->updater->slug();
    }

    private function url(?string $version = null): string
    {
        $url = add_query_arg('action', $this->action(), self_admin_url('update.php'));
        if ($version === null) {
            return wp_nonce_url($url, $this->action());
        }
        return wp_nonce_url(add_query_arg('version', rawurlencode($version), $url), $this->action() . '_' . $version);
    }

    /**
     * `plugin_row_meta`: the "Roll back" link, for a site holding a license key.
     *
     * @param array<int, string> $links
     * @return array<int, string>
     */
    public function addLink(array $links, string $file): array
    {
        if ($file !== $this->updater->basename() || !current_user_can('update_plugins') || $this->updater->licenseKey() === '') {
            return $links;
        }
        $links[] = sprintf('<a href="%s" class="licensing-rollback">%s</a>', esc_url($this->url()), esc_html__('Roll back'));
        return $links;
    }

    /** @internal update.php's `update-custom_{action}`: the list, or the chosen version's install. */
    public function screen(): void
    {
        if (!current_user_can('update_plugins')) {
            wp_die(esc_html__('Sorry, you are not allowed to update plugins for this site.'), 403);
        }
        $version = isset($_GET['version']) ? sanitize_text_field(wp_unslash((string) $_GET['version'])) : null;
        check_admin_referer($version === null ? $this->action() : $this->action() . '_' . $version);

        $GLOBALS['title'] = sprintf(/* translators: %s: plugin name */ __('Roll back %s'), $this->updater->name());
        $GLOBALS['parent_file'] = 'plugins.php';
        $GLOBALS['submenu_file'] = 'plugins.php';
        require_once ABSPATH . 'wp-admin/admin-header.php';
        echo '<div class="wrap licensing-rollback-screen"><h1>' . esc_html($GLOBALS['title']) . '</h1>';
        try {
            $versions = $this->updater->client()->versions($this->updater->licenseKey(), ['slug' => $this->updater->slug(), 'timeout' => Updater::TIMEOUT]);
            if ($version === null) {
                $this->listVersions($versions);
            } else {
                $this->install($versions, $version);
            }
        } catch (LicensingException $e) {
            echo '<div class="notice notice-error inline"><p class="licensing-rollback-error">' . esc_html(LicenseBox::explain($e)) . '</p></div>';
        }
        echo '</div>';
        require_once ABSPATH . 'wp-admin/admin-footer.php';
    }

    /** @param array<int, array<string, mixed>> $versions */
    private function listVersions(array $versions): void
    {
        $installed = $this->updater->installedVersion();
        /* translators: %s: version */
        echo '<p>' . esc_html(sprintf(__('Installed: %s. Choose the version to install; WordPress replaces the plugin with it.'), $installed)) . '</p>';
        if ($versions === []) {
            echo '<p>' . esc_html__('Your license has no other version of this plugin.') . '</p>';
            return;
        }
        echo '<table class="widefat striped licensing-versions"><thead><tr><th>' . esc_html__('Version') . '</th><th>' . esc_html__('Channel') . '</th><th>' . esc_html__('Released') . '</th><th>' . esc_html__('Requires') . '</th><th></th></tr></thead><tbody>';
        foreach ($versions as $entry) {
            $number = (string) ($entry['version'] ?? '');
            $requires = trim(implode(', ', array_filter([
                !empty($entry['requires']) ? 'WordPress ' . $entry['requires'] : '',
                !empty($entry['requiresPhp']) ? 'PHP ' . $entry['requiresPhp'] : '',
            ])));
            $action = $number === $installed
                ? esc_html__('Installed')
                : sprintf('<a class="button licensing-install-version" href="%s">%s</a>', esc_url($this->url($number)), esc_html(sprintf(/* translators: %s: version */ __('Install %s'), $number)));
            printf(
                '<tr><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>',
                esc_html($number),
                esc_html((string) ($entry['channel'] ?? 'stable')),
                esc_html(!empty($entry['releasedAt']) ? mysql2date(get_option('date_format'), (string) $entry['releasedAt']) : ''),
                esc_html($requires),
                $action
            );
        }
        echo '</tbody></table>';
    }

    /** @param array<int, array<string, mixed>> $versions */
    private function install(array $versions, string $version): void
    {
        $chosen = null;
        foreach ($versions as $entry) {
            if ((string) ($entry['version'] ?? '') === $version && !empty($entry['package'])) {
                $chosen = $entry;
                break;
            }
        }
        if ($chosen === null) {
            echo '<div class="notice notice-error inline"><p class="licensing-rollback-error">' . esc_html(sprintf(/* translators: %s: version */ __('Version %s is not available to your license.'), $version)) . '</p></div>';
            return;
        }
        require_once ABSPATH . 'wp-admin/includes/class-wp-upgrader.php';
        $basename = $this->updater->basename();
        // Plugin_Upgrader installs what the update data offers: for this one run, it offers the chosen version.
        $offer = static function ($transient) use ($basename, $chosen) {
            $transient = is_object($transient) ? clone $transient : new \stdClass();
            $transient->response = isset($transient->response) && is_array($transient->response) ? $transient->response : [];
            $transient->response[$basename] = (object) [
                'slug' => dirname($basename),
                'plugin' => $basename,
                'new_version' => (string) $chosen['version'],
                'package' => (string) $chosen['package'],
            ];
            return $transient;
        };
        add_filter('site_transient_update_plugins', $offer, 99);
        $nonce = $this->action() . '_' . $version;
        $skin = new \Plugin_Upgrader_Skin([
            'title' => sprintf(/* translators: %s: version */ __('Installing version %s'), $version),
            'nonce' => $nonce,
            'url' => $this->url($version),
            'plugin' => $basename,
        ]);
        (new \Plugin_Upgrader($skin))->upgrade($basename);
        remove_filter('site_transient_update_plugins', $offer, 99);
    }
}
