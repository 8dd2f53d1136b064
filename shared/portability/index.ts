/** The public surface of the portability context: what other contexts and the functions use of it (docs/architecture.md). */
export { EXPORT_FORMATS, getExport, requestExport } from './exports/export-jobs.js';
export type { ExportJobDeps, ExportView } from './exports/export-jobs.js';
export { EXPORT_QUEUE_SETTINGS, createExportQueue } from './exports/export-queue.js';
export type { ExportMessage, ExportQueue } from './exports/export-queue.js';
export { failExport, runExport } from './exports/export-run.js';
export type { ExportRunDeps } from './exports/export-run.js';
export { IMPORT_FORMATS } from './imports/format-names.js';
export { recordRunError } from './imports/import-ends.js';
export { MAX_IMPORT_BODY_BYTES, MAX_IMPORT_UPLOAD_BYTES, isUploadId } from './imports/import-files.js';
export { getImport, listImports } from './imports/import-jobs.js';
export type { Import } from './imports/import-jobs.js';
export { IMPORT_QUEUE_SETTINGS, createImportQueue, importMessageSchema } from './imports/import-queue.js';
export type { ImportQueue } from './imports/import-queue.js';
export { runImport } from './imports/run-import.js';
export type { ImportDeps } from './imports/run-import.js';
export { createImportUploadUrl, startImport } from './imports/start-import.js';
export type { ImportFile, StartImportDeps } from './imports/start-import.js';
export { isTimeZone } from './imports/values.js';
