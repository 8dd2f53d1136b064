<?php

namespace Licensing\WordPress;

use Licensing\Client;
use Licensing\Exception\ActivationNotFoundException;
use Licensing\Exception\InvalidPublicKeyException;
use Licensing\Exception\LicenseExpiredException;
use Licensing\Exception\LicenseNotFoundException;
use Licensing\Exception\LicenseRevokedException;
use Licensing\Exception\LicenseSuspendedException;
use Licensing\Exception\LicensingException;
use Licensing\Exception\SeatLimitReachedException;
use Licensing\Exception\SignatureException;
use Licensing\Exception\UnavailableException;
use Licensing\Exception\WrongProductException;

/**
 * A license box a plugin mounts on its own settings page: enter the key, activate it for this site, deactivate it.
 *
 *     $box = $updater->licenseBox();   // or new LicenseBox(['slug' => …, 'base_url' => …, 'public_key' => …])
 *     $box->register();                // once, when the plugin loads (Updater::register() does it)
 *     $box->render();                  // inside your settings page
 *
 * The form posts to admin-post.php (nonce and `manage_options` checked; `manage_network_options` on multisite) and
 * comes back to the page it was on. The key, its activation, its channel, the "Beta updates" choice and the last
 * message are kept in the site option `licensing_license_{slug}` (not autoloaded).
 *
 * - "Beta updates": shown only when the license receives more than stable releases (validate's `channel`, read on
 *   activation and again when the box is shown 12 hours later); on, the update check asks for the license's channel.
 * - Multisite: the network is one site, activated once with the network's main address from the network admin
 *   (mount the box on a network settings page); a subsite's box only says how the network's license stands.
 */
final class LicenseBox
{
    /** @var array<string, mixed> */
    private $config;
    /** @var string */
    private $slug;
    /** @var string */
    private $option;
    /** @var Client|null */
    private $client;

    /** How long the license's channel is trusted before the box reads it again. */
    public const CHANNEL_TTL = 43200;

    /**
     * @param array<string, mixed> $config slug, base_url, public_key (required); name, option, updater (an Updater), client
     */
    public function __construct(array $config)
    {
        if (empty($config['slug']) || empty($config['base_url'])) {
            throw new \InvalidArgumentException('Licensing\WordPress\LicenseBox: slug and base_url are required');
        }
        $this->config = $config;
        $this->slug = (string) $config['slug'];
        $this->option = isset($config['option']) ? (string) $config['option'] : 'licensing_license_' . $this->slug;
        $this->client = isset($config['client']) && $config['client'] instanceof Client ? $config['client'] : null;
    }

    public function register(): void
    {
        add_action('admin_post_' . $this->action(), [$this, 'handle']);
    }

    private function action(): string
    {
        return 'licensing_license_' . $this->slug;
    }

    private function client(): Client
    {
        if ($this->client === null) {
            if (empty($this->config['public_key'])) {
                throw new \LogicException('Licensing\WordPress\LicenseBox: public_key is required to activate licenses');
            }
            $this->client = new Client([
                'base_url' => $this->config['base_url'],
                'public_key' => $this->config['public_key'],
                'product_slug' => $this->slug,
                'signing' => $this->config['signing'] ?? null,
                'transport' => new WpTransport(),
                'timeout' => 5.0,
                'cache' => false,
            ]);
        }
        return $this->client;
    }

    /**
     * `{key, status: active|inactive|invalid, activation_id, activated_at, environment, channel, channel_read_at, beta,
     * message, message_type}`.
     *
     * @return array<string, mixed>
     */
    public function license(): array
    {
        $value = get_site_option($this->option, []);
        return is_array($value) ? $value : [];
    }

    /** @param array<string, mixed> $license */
    private function save(array $license): void
    {
        $before = [$this->activeKey(), $this->channel()];
        update_site_option($this->option, $license);
        $updater = $this->config['updater'] ?? null;
        if ($updater instanceof Updater && [$this->activeKey(), $this->channel()] !== $before) {
            // The update state was computed for the previous key or channel: the next update screen checks again.
            $updater->clearCache();
        }
    }

    /** Whether the active license receives pre-releases, so the "Beta updates" choice means something. */
    public function allowsBeta(): bool
    {
        $license = $this->license();
        return $this->activeKey() !== '' && in_array($license['channel'] ?? 'stable', ['beta', 'alpha'], true);
    }

    /** The channel the update check asks for: the license's when "Beta updates" is on, else `stable`. */
    public function channel(): string
    {
        $license = $this->license();
        return $this->allowsBeta() && !empty($license['beta']) ? (string) $license['channel'] : 'stable';
    }

    /** Turns "Beta updates" on or off (kept off while the license does not allow it). */
    public function setBeta(bool $on): void
    {
        $license = $this->license();
        $license['beta'] = $on && $this->allowsBeta();
        $license['message'] = $license['beta'] ? __('Beta updates are on: pre-releases will be offered.') : __('Beta updates are off: only stable releases will be offered.');
        $license['message_type'] = 'success';
        $this->save($license);
    }

    /**
     * Reads the license's channel (validate) into the stored license; an unreachable service keeps what was known.
     *
     * @param array<string, mixed> $license
     * @return array<string, mixed>
     */
    private function withChannel(array $license): array
    {
        $license['channel_read_at'] = time();
        try {
            $validation = $this->client()->validate((string) $license['key'], ['domain' => Site::url()]);
            if ($validation->valid && isset($validation->license['channel'])) {
                $license['channel'] = (string) $validation->license['channel'];
            }
            if ($validation->valid) {
                $license['features'] = array_values(array_filter((array) ($validation->license['features'] ?? []), 'is_string'));
            }
        } catch (LicensingException $e) {
            // Unknown for now: the box shows what it knew, and reads again in 12 hours.
        }
        return $license;
    }

    /**
     * Whether the license active on this site carries the feature `$key`, as the license server last said (read with
     * its channel, on activation and every 12 hours): no request, so a plugin may ask on every page.
     */
    public function hasFeature(string $key): bool
    {
        $license = $this->license();
        return $this->activeKey() !== '' && in_array($key, (array) ($license['features'] ?? []), true);
    }

    /** The key activated on this site, or '' when there is none. */
    public function activeKey(): string
    {
        $license = $this->license();
        return ($license['status'] ?? '') === 'active' && !empty($license['key']) ? (string) $license['key'] : '';
    }

    /** Activates $key for this site (home_url()). Returns whether it is active now; the message says why not. */
    public function activate(string $key): bool
    {
        $key = trim($key);
        $license = $this->license();
        if ($key === '') {
            $this->save(['key' => '', 'status' => 'inactive', 'message' => __('Enter a license key.'), 'message_type' => 'error'] + $license);
            return false;
        }
        try {
            $activation = $this->client()->activate($key, Site::url());
            $this->save($this->withChannel([
                'key' => $key,
                'status' => 'active',
                'activation_id' => $activation['activation_id'],
                'activated_at' => $activation['activated_at'],
                'environment' => $activation['environment'] ?? null,
                'channel' => 'stable',
                'beta' => false,
                'message' => is_multisite() ? __('License activated for this network.') : __('License activated for this site.'),
                'message_type' => 'success',
            ]));
            return true;
        } catch (LicensingException $e) {
            $unavailable = $e instanceof UnavailableException;
            $this->save([
                // An unreachable service changes nothing about an activation this site already has.
                'key' => $key,
                'status' => $unavailable && ($license['key'] ?? '') === $key ? ($license['status'] ?? 'inactive') : 'invalid',
                'activation_id' => $unavailable ? ($license['activation_id'] ?? null) : null,
                'message' => self::explain($e),
                'message_type' => 'error',
            ]);
            return false;
        }
    }

    /** Frees this site's seat. Returns whether the site no longer holds one. */
    public function deactivate(): bool
    {
        $license = $this->license();
        $key = isset($license['key']) ? (string) $license['key'] : '';
        if ($key === '') {
            return true;
        }
        try {
            $target = !empty($license['activation_id']) ? ['activation_id' => (string) $license['activation_id']] : Site::url();
            $this->client()->deactivate($key, $target);
        } catch (ActivationNotFoundException $e) {
            // Already deactivated (from the dashboard, or a revoke): nothing held here any more.
        } catch (LicenseNotFoundException $e) {
        } catch (LicensingException $e) {
            $this->save(['message' => self::explain($e), 'message_type' => 'error'] + $license);
            return false;
        }
        $this->save(['key' => $key, 'status' => 'inactive', 'activation_id' => null, 'message' => is_multisite() ? __('License deactivated for this network.') : __('License deactivated for this site.'), 'message_type' => 'success']);
        return true;
    }

    /** A sentence for the site owner, from the typed exception. */
    public static function explain(LicensingException $e): string
    {
        if ($e instanceof SeatLimitReachedException) {
            return __('This license is already active on as many sites as it allows. Deactivate it on another site first.');
        }
        if ($e instanceof LicenseExpiredException) {
            return __('This license has expired. Renew it to activate it and receive updates.');
        }
        if ($e instanceof LicenseRevokedException) {
            return __('This license has been revoked.');
        }
        if ($e instanceof LicenseSuspendedException) {
            return __('This license is suspended.');
        }
        if ($e instanceof LicenseNotFoundException || $e instanceof WrongProductException) {
            return __('This license key is not valid for this plugin.');
        }
        if ($e instanceof InvalidPublicKeyException) {
            return __('The plugin is misconfigured (invalid public key). Please contact its author.');
        }
        if ($e instanceof UnavailableException) {
            return __('The license server could not be reached. Please try again in a few minutes.');
        }
        if ($e instanceof SignatureException && in_array($e->reason(), ['wrong_license_key', 'wrong_domain'], true)) {
            return __('The answer was about another license or site than this one: something between this site and the license server changed the request.');
        }
        if ($e instanceof SignatureException) {
            return __("The license server's answer could not be verified. Check that this server's clock is right, then try again.");
        }
        return $e->getMessage();
    }

    /** @internal admin-post.php handler of the form. */
    public function handle(): void
    {
        if (!current_user_can(Site::licenseCapability())) {
            wp_die(esc_html__('Sorry, you are not allowed to manage this license.'), 403);
        }
        check_admin_referer($this->action());
        $op = isset($_POST['licensing_op']) ? sanitize_key(wp_unslash((string) $_POST['licensing_op'])) : '';
        if ($op === 'deactivate') {
            $this->deactivate();
        } elseif ($op === 'beta') {
            $this->setBeta(!empty($_POST['licensing_beta']));
        } else {
            $key = isset($_POST['license_key']) ? sanitize_text_field(wp_unslash((string) $_POST['license_key'])) : '';
            $this->activate($key);
        }
        $back = wp_get_referer();
        wp_safe_redirect($back ? $back : admin_url());
        exit;
    }

    /** Prints the box (a form posting to admin-post.php). */
    public function render(): void
    {
        $license = $this->license();
        $active = ($license['status'] ?? '') === 'active';
        $key = isset($license['key']) ? (string) $license['key'] : '';
        $name = isset($this->config['name']) ? (string) $this->config['name'] : $this->slug;
        echo '<div class="licensing-box" id="licensing-box-' . esc_attr($this->slug) . '">';
        echo '<h2>' . esc_html(sprintf(/* translators: %s: product name */ __('%s license'), $name)) . '</h2>';
        if (!Site::managesLicenseHere()) {
            // A subsite never activates on its own: the network's license covers it.
            $status = $active
                ? sprintf(/* translators: %s: network address */ __('Active for this network (%s), managed by the network administrator.'), Client::normalizeDomain(Site::url()))
                : __('Not active: the network administrator manages this license in the network admin.');
            echo '<p class="licensing-status licensing-status-network">' . esc_html($status) . '</p></div>';
            return;
        }
        if ($active && time() - (int) ($license['channel_read_at'] ?? 0) >= self::CHANNEL_TTL) {
            $this->save($this->withChannel($license));
            $license = $this->license();
        }
        if (!empty($license['message'])) {
            $type = ($license['message_type'] ?? '') === 'success' ? 'notice-success' : 'notice-error';
            echo '<div class="notice inline ' . esc_attr($type) . '"><p class="licensing-message">' . esc_html((string) $license['message']) . '</p></div>';
        }
        echo '<form method="post" action="' . esc_url(admin_url('admin-post.php')) . '">';
        echo '<input type="hidden" name="action" value="' . esc_attr($this->action()) . '">';
        wp_nonce_field($this->action());
        echo '<p><label for="licensing-key-' . esc_attr($this->slug) . '">' . esc_html__('License key') . '</label> ';
        echo '<input type="text" class="regular-text code" autocomplete="off" spellcheck="false" id="licensing-key-' . esc_attr($this->slug) . '" name="license_key" value="' . esc_attr($key) . '"' . ($active ? ' readonly' : '') . '></p>';
        if ($active) {
            $status = sprintf(
                is_multisite() ? /* translators: %s: network address */ __('Active for this network (%s).') : /* translators: %s: site address */ __('Active on this site (%s).'),
                Client::normalizeDomain(Site::url())
            );
            if (($license['environment'] ?? null) === 'staging') {
                $status .= ' ' . __('Staging site: it does not use a seat.');
            }
            echo '<p class="licensing-status licensing-status-active">' . esc_html($status) . '</p>';
            $features = array_filter((array) ($license['features'] ?? []), 'is_string');
            if ($features !== []) {
                echo '<p class="licensing-features">' . esc_html__('Features:') . ' ' . esc_html(implode(', ', $features)) . '</p>';
            }
            echo '<p><button type="submit" class="button" name="licensing_op" value="deactivate">' . esc_html__('Deactivate') . '</button></p>';
            if ($this->allowsBeta()) {
                echo '<p class="licensing-beta"><label><input type="checkbox" name="licensing_beta" value="1"' . (!empty($license['beta']) ? ' checked' : '') . '> ' . esc_html__('Beta updates: also offer pre-releases of this plugin') . '</label> ';
                echo '<button type="submit" class="button" name="licensing_op" value="beta">' . esc_html__('Save') . '</button></p>';
            }
        } else {
            echo '<p class="licensing-status licensing-status-inactive">' . esc_html__('Not active on this site.') . '</p>';
            echo '<p><button type="submit" class="button button-primary" name="licensing_op" value="activate">' . esc_html__('Activate') . '</button></p>';
        }
        echo '</form></div>';
    }
}
