import { README_SECTIONS } from '../../../platform/data/index.js';

export { README_SECTIONS };
export type ReadmeSection = (typeof README_SECTIONS)[number];
