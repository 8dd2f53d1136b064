/**
 * The desktop update feeds and their files (DECISIONS §26): loaded with `import()` by the first request for one
 * (shared/licensing/index.ts: `loadDesktopFeeds`), so the edge's cold start parses none of it (issue 26).
 */
export { electronChannelFile } from './electron.js';
export { feedContext, NO_LIVE_LEASE } from './feed-access.js';
export type { FeedRequest } from './feed-access.js';
export { downloadPlatformFile, FILE_NOT_FOUND } from './file-download.js';
export { sparkleAppcast } from './sparkle.js';
export { tauriUpdate } from './tauri.js';
