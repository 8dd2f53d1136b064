/**
 * The licensed update feeds of a desktop app (the service's docs/desktop.md): URLs for the updaters' own configuration,
 * carrying the license key and, for a floating license, the machine that holds a lease (`machineFingerprint`).
 */
export type DesktopFeedOptions = {
  /** The service's base URL, e.g. `https://licenses.example.com`. */
  baseUrl: string;
  /** The product's slug. */
  productSlug: string;
  licenseKey: string;
  /** The machine's fingerprint: required for a floating license, whose machine must hold a live lease. */
  machine?: string;
};

function feedBase(options: DesktopFeedOptions, call: string): { base: string; query: string } {
  if (!/^https?:\/\//.test(options.baseUrl ?? '')) throw new TypeError(`${call}: baseUrl must be an http(s) URL`);
  if (!options.productSlug) throw new TypeError(`${call}: productSlug is required`);
  if (!options.licenseKey) throw new TypeError(`${call}: licenseKey is required`);
  const query = new URLSearchParams({ license_key: options.licenseKey });
  if (options.machine !== undefined) query.set('machine', options.machine);
  return { base: `${options.baseUrl.replace(/\/+$/, '')}/v1/feeds/${encodeURIComponent(options.productSlug)}`, query: query.toString() };
}

/**
 * electron-updater's generic provider URL: `autoUpdater.setFeedURL({ provider: 'generic', url })`. electron-updater
 * appends `latest.yml`, `latest-mac.yml` or `latest-linux.yml` to its path and keeps this query string on every file it
 * downloads.
 */
export function electronFeedUrl(options: DesktopFeedOptions): string {
  const { base, query } = feedBase(options, 'electronFeedUrl');
  return `${base}/electron?${query}`;
}

/**
 * Tauri 2's updater endpoint, with Tauri's own `{{target}}`, `{{arch}}` and `{{current_version}}` for it to fill in:
 * `check({ ... })` uses the endpoints of `tauri.conf.json`, so set it there, or from Rust with `updater_builder().endpoints()`.
 */
export function tauriEndpoint(options: DesktopFeedOptions): string {
  const { base, query } = feedBase(options, 'tauriEndpoint');
  return `${base}/tauri/{{target}}/{{arch}}/{{current_version}}?${query}`;
}

/** Sparkle's appcast (`SUFeedURL`, or `feedURLString(for:)` of the updater's delegate). */
export function sparkleFeedUrl(options: DesktopFeedOptions): string {
  const { base, query } = feedBase(options, 'sparkleFeedUrl');
  return `${base}/sparkle/appcast.xml?${query}`;
}
