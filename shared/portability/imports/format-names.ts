import { IMPORT_FORMATS } from '../../platform/data/index.js';

export { IMPORT_FORMATS };
export type ImportFormatName = (typeof IMPORT_FORMATS)[number];
