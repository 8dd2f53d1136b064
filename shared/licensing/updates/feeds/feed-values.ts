import type { Platform } from '../../../catalog/index.js';

/**
 * The names in the feeds' paths (DECISIONS §26), which the edge's routes and schemas read at load: apart from the
 * feeds themselves, which are loaded by the first request for one.
 */

/**
 * electron-updater's channel files (the generic provider's `latest*.yml`) and the platforms each lists: electron-updater
 * asks for `latest.yml` on Windows, `latest-mac.yml` on macOS, `latest-linux.yml` on Linux x64 and
 * `latest-linux-arm64.yml` on Linux arm64; on Windows and macOS it picks among the listed files by its architecture in
 * the URL.
 */
export const ELECTRON_CHANNEL_FILES = {
  'latest.yml': ['windows-x64', 'windows-arm64'],
  'latest-mac.yml': ['macos-x64', 'macos-arm64'],
  'latest-linux.yml': ['linux-x64'],
  'latest-linux-arm64.yml': ['linux-arm64'],
} as const satisfies Record<string, readonly Platform[]>;
export type ElectronChannelFile = keyof typeof ELECTRON_CHANNEL_FILES;

/** Tauri 2's `{{target}}` and `{{arch}}`. */
export const TAURI_TARGETS = ['windows', 'darwin', 'linux'] as const;
export const TAURI_ARCHES = ['x86_64', 'aarch64'] as const;
export type TauriTarget = (typeof TAURI_TARGETS)[number];
export type TauriArch = (typeof TAURI_ARCHES)[number];
