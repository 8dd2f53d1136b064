/** The public surface of shared/platform/storage: what the contexts and the functions use of it. */
export { RELEASE_FILES_ROOT, createDownloadLinks } from './download-links.js';
export type { DownloadLinks } from './download-links.js';
export { bucketOf, inspectReleaseFile, isMissing, presignUpload, putReleaseFile, readReleaseFileRange, releaseFileSha1 } from './release-files.js';
export type { StorageDeps } from './release-files.js';
