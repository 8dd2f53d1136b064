import { compareVersions, type Platform } from '../../../catalog/index.js';
import { type FeedContext, fileFor, offeredRelease, platformFileUrl } from './feed-access.js';
import type { TauriArch, TauriTarget } from './feed-values.js';

/** The platform file each of Tauri's `{{target}}` and `{{arch}}` pairs gets (DECISIONS §26). */
const OS_OF_TARGET: Record<TauriTarget, string> = { windows: 'windows', darwin: 'macos', linux: 'linux' };
const ARCH_OF: Record<TauriArch, string> = { x86_64: 'x64', aarch64: 'arm64' };
export const tauriPlatform = (target: TauriTarget, arch: TauriArch) => `${OS_OF_TARGET[target]}-${ARCH_OF[arch]}` as Platform;

/** Tauri 2's dynamic update answer (its updater plugin's documented server response). */
export type TauriUpdate = { version: string; notes: string; pub_date: string; url: string; signature: string };

/**
 * Tauri 2's updater endpoint (DECISIONS §26): the offered release with a file for the platform, when newer than the
 * app's `current_version`; else nothing (the route answers 204). `signature` is the file's minisign signature as the
 * vendor gave it (the content of Tauri's `.sig` file), which the app checks against its configured public key.
 */
export function tauriUpdate(context: FeedContext, target: TauriTarget, arch: TauriArch, currentVersion: string): TauriUpdate | undefined {
  const platform = tauriPlatform(target, arch);
  const release = offeredRelease(context, [platform]);
  if (!release || compareVersions(release.version, currentVersion) <= 0) return undefined;
  const file = fileFor(release, platform)!;
  return {
    version: release.version,
    notes: release.releaseNotes ?? '',
    pub_date: release.releasedAt ?? release.createdAt,
    url: platformFileUrl(context.request, release, file),
    signature: file.signature ?? '',
  };
}
