import { check, type Update } from '@tauri-apps/plugin-updater';

/**
 * Tauri 2's updater as an app runs it: `check()` of @tauri-apps/plugin-updater (the package's own code) calls the Rust
 * side through `window.__TAURI_INTERNALS__.invoke`, stood in for here by what the Rust plugin does with the configured
 * endpoint (tauri-plugin-updater, `Updater::check`): fills `{{target}}`, `{{arch}}` and `{{current_version}}`, reads 204
 * as no update, and from a 200 requires `version` (semver), `url` and `signature` and takes `notes` and `pub_date`
 * (RFC 3339), answering an update only for a version above the current one.
 */
export async function checkWithTauri(endpoint: string, platform: { target: string; arch: string; currentVersion: string }): Promise<Update | null> {
  let rid = 0;
  const invoke = async (command: string) => {
    if (command !== 'plugin:updater|check') throw new Error(`not stood in for: ${command}`);
    const url = endpoint
      .replace('{{target}}', platform.target)
      .replace('{{arch}}', platform.arch)
      .replace('{{current_version}}', platform.currentVersion);
    const res = await fetch(url);
    if (res.status === 204) return null;
    if (res.status !== 200) throw new Error(`Could not fetch a valid release JSON from the remote: ${res.status} ${await res.text()}`);
    const raw = (await res.json()) as Record<string, unknown>;
    for (const field of ['version', 'url', 'signature'] as const) {
      if (typeof raw[field] !== 'string') throw new Error(`the release JSON lacks ${field}`);
    }
    if (!/^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/.test(raw.version as string)) throw new Error('version is not semver');
    if (raw.pub_date !== undefined && Number.isNaN(Date.parse(raw.pub_date as string))) throw new Error('pub_date is not RFC 3339');
    if (raw.notes !== undefined && typeof raw.notes !== 'string') throw new Error('notes is not a string');
    return { rid: ++rid, currentVersion: platform.currentVersion, version: raw.version, date: raw.pub_date, body: raw.notes, rawJson: raw };
  };
  (globalThis as { window?: unknown }).window = { __TAURI_INTERNALS__: { invoke } };
  try {
    return await check();
  } finally {
    delete (globalThis as { window?: unknown }).window;
  }
}
