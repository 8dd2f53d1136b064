<?php

namespace Licensing\WordPress;

use Licensing\Client;
use Licensing\Exception\LicensingException;

/**
 * Updates for a plugin sold through the licensing service, through WordPress's own update screens and upgrader.
 *
 *     $updater = new \Licensing\WordPress\Updater([
 *         'file'       => __FILE__,                        // the plugin's main file
 *         'slug'       => 'my-plugin',                     // the product's slug in the service
 *         'base_url'   => 'https://licenses.example.com',
 *         'public_key' => 'pk_…',                          // for the license box (activate/deactivate)
 *     ]);
 *     $updater->register();
 *     // on your settings page: $updater->licenseBox()->render();
 *
 * - Never slow: a request is made only by its own cron event, when WordPress refreshes its update data
 *   (`pre_set_site_transient_update_plugins`), on the update screens (Dashboard → Updates: 1 minute; Plugins:
 *   1 hour), by the "Check for updates" and "Roll back" links and by the license box; never on other admin pages,
 *   and reading WordPress's update data never makes one. Each request has a 5 s budget (3 s to connect). A success
 *   is kept 12 hours; a failure keeps the last good answer and stops all requests for an hour, doubling with each
 *   failure in a row up to 24 hours. A failure is never a PHP warning.
 * - Each check sends the site's PHP and WordPress versions, its address and its channel (the license box's "Beta
 *   updates" opt-in), so the service offers only a release the site may have and can run.
 * - An expired license's update row says "Renew your license to update to X", linked to the renewal checkout.
 * - The state lives in a non-autoloaded site option rather than a transient: an object cache cannot evict it (a
 *   transient evicted on every page turns into a request on every page).
 */
final class Updater
{
    public const SUCCESS_TTL = 43200;
    /** After the first failure in a row; each further one doubles it, up to MAX_FAILURE_BACKOFF. */
    public const FAILURE_BACKOFF = 3600;
    public const MAX_FAILURE_BACKOFF = 86400;
    /** Seconds for a whole request, in an admin page or under cron (connecting: 3 of them, WpTransport). */
    public const TIMEOUT = 5.0;
    /** How often the update screens re-check (seconds). */
    public const SCREEN_MAX_AGE = ['update-core.php' => 60, 'plugins.php' => 3600, 'update.php' => 3600];

    /** @var array<string, mixed> */
    private $config;
    /** @var string */
    private $file;
    /** @var string plugin basename: `dir/file.php` */
    private $basename;
    /** @var string */
    private $slug;
    /** @var string */
    private $stateOption;
    /** @var string */
    private $cronHook;
    /** @var string|null */
    private $installedVersion;
    /** @var LicenseBox|null */
    private $licenseBox;
    /** @var Client|null */
    private $client;
    /** @var Rollback|null */
    private $rollback;

    /**
     * @param array<string, mixed> $config
     *   - file (required): the plugin's main file (`__FILE__` in it)
     *   - slug (required): the product's slug in the service
     *   - base_url (required): the service
     *   - public_key: the product's `pk_…` key, for the license box
     *   - license_key: callable returning the key to check updates with, when your plugin stores it itself
     *     (default: the key the license box activated on this site)
     *   - settings_url: where your plugin's settings page (with the license box) is, linked from update notices
     *   - name: the product name in messages (default: the plugin's Name header)
     *   - signing: verify the service's signed answers (update checks, the license box's calls), as Licensing\Client's
     *     option: ['public_keys' => [['keyId' => 'sig_…', 'publicKey' => '…']]] (pinned, recommended)
     *   - client: a Licensing\Client to use (default: one over WordPress's HTTP API)
     */
    public function __construct(array $config)
    {
        foreach (['file', 'slug', 'base_url'] as $required) {
            if (empty($config[$required])) {
                throw new \InvalidArgumentException('Licensing\WordPress\Updater: ' . $required . ' is required');
            }
        }
        $this->config = $config;
        $this->file = (string) $config['file'];
        $this->basename = plugin_basename($this->file);
        $this->slug = (string) $config['slug'];
        $this->stateOption = 'licensing_update_' . $this->slug;
        $this->cronHook = 'licensing_check_updates_' . $this->slug;
        $this->client = isset($config['client']) && $config['client'] instanceof Client ? $config['client'] : null;
    }

    /** Hooks everything. Call it once, when the plugin loads. */
    public function register(): void
    {
        add_filter('pre_set_site_transient_update_plugins', [$this, 'onUpdateRefresh']);
        add_filter('site_transient_update_plugins', [$this, 'injectUpdate']);
        add_filter('plugins_api', [$this, 'pluginInformation'], 20, 3);
        add_filter('http_request_args', [$this, 'excludeFromWordPressOrg'], 10, 2);
        add_filter('upgrader_source_selection', [$this, 'fixDirectoryName'], 10, 4);
        add_action('upgrader_process_complete', [$this, 'afterUpgrade'], 10, 2);
        add_action('in_plugin_update_message-' . $this->basename, [$this, 'explainMissingPackage'], 10, 2);
        add_action('after_plugin_row_' . $this->basename, [$this, 'showRenewalRow'], 20, 3);
        add_filter('plugin_row_meta', [$this, 'addCheckLink'], 10, 2);
        add_action('admin_init', [$this, 'onAdminInit']);
        add_action('admin_notices', [$this, 'showCheckResult']);
        add_action('network_admin_notices', [$this, 'showCheckResult']);
        foreach (self::SCREEN_MAX_AGE as $screen => $maxAge) {
            add_action('load-' . $screen, function () use ($maxAge): void {
                $this->maybeCheck($maxAge, 'admin');
            });
        }
        add_action($this->cronHook, [$this, 'onCron']);
        add_action('init', [$this, 'schedule']);
        register_deactivation_hook($this->file, [$this, 'unschedule']);
        $this->licenseBox()->register();
        $this->rollback()->register();
    }

    public function basename(): string
    {
        return $this->basename;
    }

    public function slug(): string
    {
        return $this->slug;
    }

    public function cronHook(): string
    {
        return $this->cronHook;
    }

    public function stateOption(): string
    {
        return $this->stateOption;
    }

    /** The license settings box of this plugin (activate/deactivate for this site), sharing the updater's settings. */
    public function licenseBox(): LicenseBox
    {
        if ($this->licenseBox === null) {
            $this->licenseBox = new LicenseBox($this->config + ['updater' => $this]);
        }
        return $this->licenseBox;
    }

    /** The "Roll back" link and screen of this plugin. */
    public function rollback(): Rollback
    {
        if ($this->rollback === null) {
            $this->rollback = new Rollback($this);
        }
        return $this->rollback;
    }

    /** The channel this site asks for: the license's when the license box's "Beta updates" is on, else `stable`. */
    public function channel(): string
    {
        return $this->licenseBox()->channel();
    }

    /** The key update checks and downloads use: the plugin's own (`license_key` callable), else the one activated here. */
    public function licenseKey(): string
    {
        if (isset($this->config['license_key']) && is_callable($this->config['license_key'])) {
            return trim((string) call_user_func($this->config['license_key']));
        }
        return $this->licenseBox()->activeKey();
    }

    /** The plugin's installed version (its `Version` header). */
    public function installedVersion(): string
    {
        if ($this->installedVersion === null) {
            $data = get_file_data($this->file, ['Version' => 'Version']);
            $this->installedVersion = (string) $data['Version'];
        }
        return $this->installedVersion;
    }

    // ----- stored state ------------------------------------------------------------------------------------------

    /**
     * `{checked_at, failed_at, failures, error, expires, info, key_hash}`: `info` is the last good answer of the update
     * check (kept after a failure); `failures` the failures in a row; `expires` when the next check is due.
     *
     * @return array<string, mixed>
     */
    public function state(): array
    {
        $state = get_site_option($this->stateOption, []);
        return is_array($state) ? $state : [];
    }

    /** @param array<string, mixed> $state */
    private function saveState(array $state): void
    {
        update_site_option($this->stateOption, $state);
    }

    /** Forgets the stored answer: the next admin page or cron run checks again. */
    public function clearCache(): void
    {
        delete_site_option($this->stateOption);
    }

    /** What the stored answer was asked for: the key and the channel (either changing calls for a new check). */
    private function keyHash(): string
    {
        return md5($this->licenseKey() . '|' . $this->channel());
    }

    /** How long requests stop after `$failures` failures in a row: 1 hour, doubling, at most 24 hours. */
    public static function backoff(int $failures): int
    {
        return (int) min(self::MAX_FAILURE_BACKOFF, self::FAILURE_BACKOFF * (2 ** max(0, min($failures, 16) - 1)));
    }

    /** @param array<string, mixed> $state */
    private static function backingOff(array $state, int $now): bool
    {
        return !empty($state['failed_at']) && $now - (int) $state['failed_at'] < self::backoff(max(1, (int) ($state['failures'] ?? 1)));
    }

    // ----- checking ----------------------------------------------------------------------------------------------

    /**
     * Checks when the stored answer is older than $maxAge seconds, the license key or channel changed since, or there
     * is none; never while backing off after a failure. Returns whether a request was made.
     */
    public function maybeCheck(int $maxAge, string $context = 'admin'): bool
    {
        if ($context === 'admin' && !current_user_can('update_plugins')) {
            return false;
        }
        $state = $this->state();
        $now = time();
        if (self::backingOff($state, $now)) {
            return false;
        }
        $fresh = !empty($state['checked_at']) && $now - (int) $state['checked_at'] < $maxAge;
        if ($fresh && isset($state['key_hash']) && $state['key_hash'] === $this->keyHash()) {
            return false;
        }
        return $this->checkNow($context);
    }

    /**
     * Asks the service now (one request of at most 5 s) and stores the answer; a failure is stored as such, keeps the
     * last good answer and starts the back-off. Returns whether it succeeded.
     */
    public function checkNow(string $context = 'admin'): bool
    {
        // One check at a time: a second request finding the lock does not pile onto a slow service.
        $lock = $this->stateOption . '_lock';
        $held = get_site_option($lock);
        if ($held && (int) $held > time()) {
            return false;
        }
        update_site_option($lock, time() + (int) ceil(self::TIMEOUT) + 5);
        $state = $this->state();
        try {
            $key = $this->licenseKey();
            $result = $this->client()->checkForUpdate($key !== '' ? $key : 'none', $this->installedVersion(), [
                'slug' => $this->slug,
                'domain' => Site::url(),
                'channel' => $this->channel(),
                'php' => Site::phpVersion(),
                'wp' => Site::wordPressVersion(),
                'timeout' => self::TIMEOUT,
            ]);
            $now = time();
            $this->saveState([
                'checked_at' => $now,
                'failed_at' => null,
                'failures' => 0,
                'error' => null,
                'expires' => $now + self::SUCCESS_TTL,
                'info' => $result['info'],
                'renewal' => $result['renewal'],
                'key_hash' => $this->keyHash(),
            ]);
            $ok = true;
        } catch (LicensingException $e) {
            $now = time();
            $state['failed_at'] = $now;
            $state['failures'] = (int) ($state['failures'] ?? 0) + 1;
            $state['error'] = $e->getMessage();
            $state['expires'] = $now + self::backoff($state['failures']);
            $this->saveState($state);
            $ok = false;
        }
        delete_site_option($lock);
        return $ok;
    }

    /** @internal the client of the update check and the versions list (Rollback). */
    public function client(): Client
    {
        if ($this->client === null) {
            $this->client = new Client([
                'base_url' => $this->config['base_url'],
                'public_key' => $this->config['public_key'] ?? null,
                'product_slug' => $this->slug,
                'signing' => $this->config['signing'] ?? null,
                'version' => $this->installedVersion(),
                'transport' => new WpTransport(),
                'retries' => 0,
                'cache' => false,
            ]);
        }
        return $this->client;
    }

    /** @internal the cron event's handler */
    public function onCron(): void
    {
        $this->maybeCheck(self::FAILURE_BACKOFF, 'cron');
    }

    /**
     * `pre_set_site_transient_update_plugins`: WordPress is refreshing its update data (its cron, the update screens,
     * or its own twice-a-day check), the moment it makes its own requests: check when the stored answer is 12 hours
     * old (as bounded as any check), then put the plugin in.
     *
     * @param mixed $transient
     * @return mixed
     */
    public function onUpdateRefresh($transient)
    {
        if (is_object($transient)) {
            $this->maybeCheck(self::SUCCESS_TTL, wp_doing_cron() ? 'cron' : 'admin');
        }
        return $this->injectUpdate($transient);
    }

    /** @internal: schedules the cron event (twice a day, first run at a random time within the hour). */
    public function schedule(): void
    {
        if (!wp_next_scheduled($this->cronHook)) {
            wp_schedule_event(time() + wp_rand(60, 3600), 'twicedaily', $this->cronHook);
        }
    }

    /** @internal: on the plugin's deactivation. */
    public function unschedule(): void
    {
        wp_clear_scheduled_hook($this->cronHook);
    }

    /** @internal: the "Check for updates" link (other admin pages make no request). */
    public function onAdminInit(): void
    {
        if (isset($_GET['licensing_check']) && $_GET['licensing_check'] === $this->slug) {
            check_admin_referer('licensing_check_' . $this->slug);
            if (!current_user_can('update_plugins')) {
                wp_die(esc_html__('You are not allowed to update plugins.'), 403);
            }
            $this->clearFailure();
            $ok = $this->checkNow('admin');
            wp_safe_redirect(add_query_arg(['licensing_checked' => $this->slug, 'licensing_result' => $ok ? 'ok' : 'failed'], self_admin_url('plugins.php')));
            exit;
        }
    }

    private function clearFailure(): void
    {
        $state = $this->state();
        if (!empty($state['failed_at'])) {
            $state['failed_at'] = null;
            $state['failures'] = 0;
            $this->saveState($state);
        }
    }

    /** @internal */
    public function showCheckResult(): void
    {
        if (!isset($_GET['licensing_checked']) || $_GET['licensing_checked'] !== $this->slug || !current_user_can('update_plugins')) {
            return;
        }
        $state = $this->state();
        $name = $this->name();
        if (isset($_GET['licensing_result']) && $_GET['licensing_result'] === 'ok') {
            $info = isset($state['info']) && is_array($state['info']) ? $state['info'] : [];
            $latest = isset($info['new_version']) ? (string) $info['new_version'] : '';
            $message = $latest !== '' && version_compare($latest, $this->installedVersion(), '>')
                /* translators: 1: plugin name, 2: version */
                ? sprintf(__('A new version of %1$s is available: %2$s.'), $name, $latest)
                /* translators: %s: plugin name */
                : sprintf(__('%s is up to date.'), $name);
            printf('<div class="notice notice-success is-dismissible"><p>%s</p></div>', esc_html($message));
        } else {
            /* translators: 1: plugin name, 2: error */
            $message = sprintf(__('Could not check for updates of %1$s: %2$s'), $name, isset($state['error']) ? (string) $state['error'] : '');
            printf('<div class="notice notice-error is-dismissible"><p>%s</p></div>', esc_html($message));
        }
    }

    public function name(): string
    {
        if (!empty($this->config['name'])) {
            return (string) $this->config['name'];
        }
        $data = get_file_data($this->file, ['Name' => 'Plugin Name']);
        return $data['Name'] !== '' ? (string) $data['Name'] : $this->slug;
    }

    // ----- WordPress's filters, from stored state only ----------------------------------------------------------

    /**
     * `pre_set_site_transient_update_plugins` and `site_transient_update_plugins`: puts the plugin under `response`
     * (an update) or `no_update` (current, so the auto-update toggle shows). Never makes a request.
     *
     * @param mixed $transient
     * @return mixed
     */
    public function injectUpdate($transient)
    {
        if (!is_object($transient)) {
            return $transient;
        }
        $item = $this->updateItem();
        if ($item === null) {
            return $transient;
        }
        $installed = isset($transient->checked[$this->basename]) ? (string) $transient->checked[$this->basename] : $this->installedVersion();
        if (!isset($transient->response) || !is_array($transient->response)) {
            $transient->response = [];
        }
        if (!isset($transient->no_update) || !is_array($transient->no_update)) {
            $transient->no_update = [];
        }
        if ($item->new_version !== '' && version_compare($item->new_version, $installed, '>')) {
            $transient->response[$this->basename] = $item;
            unset($transient->no_update[$this->basename]);
        } else {
            $transient->no_update[$this->basename] = $item;
            unset($transient->response[$this->basename]);
        }
        return $transient;
    }

    /** The update entry WordPress expects, from the stored answer; null when there is none. */
    public function updateItem(): ?\stdClass
    {
        $state = $this->state();
        $info = isset($state['info']) && is_array($state['info']) ? $state['info'] : null;
        if ($info === null) {
            return null;
        }
        // A package is offered only for the key it was computed for.
        $package = isset($info['package']) && is_string($info['package']) && isset($state['key_hash']) && $state['key_hash'] === $this->keyHash() ? $info['package'] : '';
        return (object) [
            'id' => rtrim((string) $this->config['base_url'], '/') . '/' . $this->slug,
            'slug' => $this->slug,
            'plugin' => $this->basename,
            'new_version' => isset($info['new_version']) ? (string) $info['new_version'] : '',
            'url' => isset($info['url']) ? (string) $info['url'] : '',
            'package' => $package,
            'icons' => self::images(isset($info['icons']) ? $info['icons'] : []),
            'banners' => self::images(isset($info['banners']) ? $info['banners'] : []),
            'banners_rtl' => [],
            'tested' => isset($info['tested']) ? (string) $info['tested'] : '',
            'requires' => isset($info['requires']) ? (string) $info['requires'] : '',
            'requires_php' => isset($info['requires_php']) ? (string) $info['requires_php'] : '',
            'upgrade_notice' => isset($info['upgrade_notice']) && is_string($info['upgrade_notice']) ? $info['upgrade_notice'] : '',
            'compatibility' => new \stdClass(),
        ];
    }

    /**
     * @param mixed $images
     * @return array<string, string>
     */
    private static function images($images): array
    {
        return is_array($images) ? array_filter(array_map('strval', array_filter($images, 'is_string'))) : [];
    }

    /**
     * `plugins_api`: the "View details" modal (description, changelog, banners, icons, tested/requires) of this
     * plugin's slug only; anything else goes through untouched.
     *
     * @param mixed $result
     * @param mixed $args
     * @return mixed
     */
    public function pluginInformation($result, string $action = '', $args = null)
    {
        if ($action !== 'plugin_information' || !is_object($args) || !isset($args->slug) || $args->slug !== $this->slug) {
            return $result;
        }
        $state = $this->state();
        if (empty($state['info'])) {
            // Never checked yet: the user asked for these details, so one bounded check (respecting the back-off).
            $this->maybeCheck(self::SUCCESS_TTL, 'admin');
            $state = $this->state();
        }
        if (empty($state['info']) || !is_array($state['info'])) {
            return new \WP_Error('plugins_api_failed', __('The plugin information could not be loaded. Please try again later.'));
        }
        $info = $state['info'];
        $item = $this->updateItem();
        $header = get_file_data($this->file, ['Author' => 'Author', 'AuthorURI' => 'Author URI']);
        return (object) [
            'name' => isset($info['name']) ? (string) $info['name'] : $this->name(),
            'slug' => $this->slug,
            'version' => isset($info['version']) ? (string) $info['version'] : '',
            'author' => $header['AuthorURI'] !== '' ? sprintf('<a href="%s">%s</a>', esc_url($header['AuthorURI']), esc_html($header['Author'])) : esc_html($header['Author']),
            'homepage' => isset($info['url']) ? (string) $info['url'] : '',
            'requires' => isset($info['requires']) ? (string) $info['requires'] : '',
            'tested' => isset($info['tested']) ? (string) $info['tested'] : '',
            'requires_php' => isset($info['requires_php']) ? (string) $info['requires_php'] : '',
            'download_link' => $item !== null ? $item->package : '',
            'sections' => [
                'description' => isset($info['sections']['description']) ? (string) $info['sections']['description'] : '',
                'changelog' => isset($info['sections']['changelog']) ? (string) $info['sections']['changelog'] : '',
            ],
            'banners' => self::images(isset($info['banners']) ? $info['banners'] : []),
            'icons' => self::images(isset($info['icons']) ? $info['icons'] : []),
            'external' => true,
        ];
    }

    /**
     * `http_request_args`: removes this plugin from WordPress.org's plugin update check, so a public plugin with the
     * same name or slug can never offer itself as this plugin's update.
     *
     * @param array<string, mixed> $args
     * @return array<string, mixed>
     */
    public function excludeFromWordPressOrg(array $args, string $url): array
    {
        if (strpos($url, '://api.wordpress.org/plugins/update-check/') === false || !isset($args['body']['plugins'])) {
            return $args;
        }
        $plugins = json_decode((string) $args['body']['plugins'], true);
        if (!is_array($plugins)) {
            return $args;
        }
        unset($plugins['plugins'][$this->basename]);
        if (isset($plugins['active']) && is_array($plugins['active'])) {
            $plugins['active'] = array_values(array_diff($plugins['active'], [$this->basename]));
        }
        $args['body']['plugins'] = wp_json_encode($plugins);
        return $args;
    }

    /**
     * `upgrader_source_selection`: renames the unzipped folder to the installed plugin's directory (a ZIP holding
     * `my-plugin-1.2.0/` or its files at the top level still updates `my-plugin/`).
     *
     * @param mixed $source
     * @param mixed $upgrader
     * @param array<string, mixed> $hookExtra
     * @return mixed
     */
    public function fixDirectoryName($source, string $remoteSource = '', $upgrader = null, array $hookExtra = [])
    {
        global $wp_filesystem;
        if (!is_string($source) || !isset($hookExtra['plugin']) || $hookExtra['plugin'] !== $this->basename || !$wp_filesystem) {
            return $source;
        }
        $directory = dirname($this->basename);
        if ($directory === '.' || $directory === '') {
            return $source; // a single-file plugin: nothing to rename
        }
        if (basename(untrailingslashit($source)) === $directory) {
            return $source;
        }
        $target = trailingslashit($remoteSource) . $directory . '/';
        if (untrailingslashit($source) === untrailingslashit($remoteSource)) {
            // The files sit at the top of the ZIP: gather them into a folder of the right name.
            $entries = $wp_filesystem->dirlist($remoteSource);
            if (!$wp_filesystem->mkdir($target)) {
                return new \WP_Error('licensing_rename_failed', __('Could not prepare the plugin folder for the update.'));
            }
            foreach (array_keys((array) $entries) as $entry) {
                if (!$wp_filesystem->move(trailingslashit($remoteSource) . $entry, $target . $entry)) {
                    return new \WP_Error('licensing_rename_failed', __('Could not prepare the plugin folder for the update.'));
                }
            }
            return $target;
        }
        if ($wp_filesystem->exists($target)) {
            $wp_filesystem->delete($target, true);
        }
        if (!$wp_filesystem->move(untrailingslashit($source), untrailingslashit($target))) {
            return new \WP_Error('licensing_rename_failed', __('Could not rename the plugin folder for the update.'));
        }
        return $target;
    }

    /**
     * `upgrader_process_complete`: after this plugin was updated, forgets the stored answer and re-checks soon.
     *
     * @param mixed $upgrader
     * @param array<string, mixed> $options
     */
    public function afterUpgrade($upgrader, array $options = []): void
    {
        if (($options['type'] ?? '') !== 'plugin' || ($options['action'] ?? '') !== 'update') {
            return;
        }
        $plugins = isset($options['plugins']) && is_array($options['plugins']) ? $options['plugins'] : (isset($options['plugin']) ? [$options['plugin']] : []);
        if (!in_array($this->basename, $plugins, true)) {
            return;
        }
        $this->clearCache();
        $this->installedVersion = null;
        wp_schedule_single_event(time() + 60, $this->cronHook);
    }

    /**
     * `in_plugin_update_message-{file}`: under an update WordPress cannot install (no package), says why and where to
     * fix it, instead of WordPress's bare "Automatic update is unavailable".
     *
     * @param mixed $pluginData
     * @param mixed $response
     */
    public function explainMissingPackage($pluginData = null, $response = null): void
    {
        $renewal = $this->renewal();
        if ($renewal !== null) {
            echo ' ' . $this->renewalMessage($renewal);
            return;
        }
        if (is_object($response) && !empty($response->package)) {
            return;
        }
        $message = $this->licenseKey() === ''
            ? __('Enter and activate your license key to receive this update.')
            : __('Your license key cannot download this update: it may have expired, been revoked or suspended, or be for another product.');
        echo ' <strong class="licensing-update-message">' . esc_html($message) . '</strong>';
        if (!empty($this->config['settings_url'])) {
            printf(' <a href="%s">%s</a>', esc_url((string) $this->config['settings_url']), esc_html__('Manage your license'));
        }
    }

    /**
     * The service's "renew to update" for this site's expired license, as stored with the last good answer.
     *
     * @return array{notice: string, url: ?string}|null
     */
    public function renewal(): ?array
    {
        $state = $this->state();
        $renewal = $state['renewal'] ?? null;
        return is_array($renewal) && isset($renewal['notice']) && is_string($renewal['notice']) && $renewal['notice'] !== ''
            ? ['notice' => $renewal['notice'], 'url' => isset($renewal['url']) && is_string($renewal['url']) ? $renewal['url'] : null]
            : null;
    }

    /** @param array{notice: string, url: ?string} $renewal */
    private function renewalMessage(array $renewal): string
    {
        $html = '<strong class="licensing-renewal-notice">' . esc_html($renewal['notice']) . '.</strong>';
        $link = $renewal['url'] ?? ($this->config['settings_url'] ?? null);
        if ($link) {
            $html .= sprintf(' <a class="licensing-renewal-link" href="%s">%s</a>', esc_url((string) $link), esc_html__('Renew your license'));
        }
        return $html;
    }

    /**
     * `after_plugin_row_{file}`: the renew notice as a row of its own when the site is on the newest release its
     * expired license may have (WordPress then shows no update row to carry it): never a silent nothing.
     *
     * @param mixed $file
     * @param mixed $pluginData
     * @param mixed $status
     */
    public function showRenewalRow($file = null, $pluginData = null, $status = null): void
    {
        $renewal = $this->renewal();
        if ($renewal === null || !current_user_can('update_plugins')) {
            return;
        }
        $updates = get_site_transient('update_plugins');
        if (is_object($updates) && isset($updates->response[$this->basename])) {
            return; // WordPress's update row carries it (explainMissingPackage)
        }
        $columns = isset($GLOBALS['wp_list_table']) && is_object($GLOBALS['wp_list_table']) && method_exists($GLOBALS['wp_list_table'], 'get_column_count')
            ? (int) $GLOBALS['wp_list_table']->get_column_count()
            : 4;
        printf(
            '<tr class="plugin-update-tr active licensing-renewal-row"><td colspan="%d" class="plugin-update colspanchange"><div class="update-message notice inline notice-warning notice-alt"><p>%s</p></div></td></tr>',
            $columns,
            $this->renewalMessage($renewal)
        );
    }

    /**
     * `plugin_row_meta`: a "Check for updates" link under the plugin (nonce and capability checked when followed).
     *
     * @param array<int, string> $links
     * @return array<int, string>
     */
    public function addCheckLink(array $links, string $file): array
    {
        if ($file !== $this->basename || !current_user_can('update_plugins')) {
            return $links;
        }
        $url = wp_nonce_url(add_query_arg('licensing_check', $this->slug, self_admin_url('plugins.php')), 'licensing_check_' . $this->slug);
        $links[] = sprintf('<a href="%s">%s</a>', esc_url($url), esc_html__('Check for updates'));
        return $links;
    }
}
