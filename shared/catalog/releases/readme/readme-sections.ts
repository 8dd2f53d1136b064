/** The readme.txt sections the update check shows (DECISIONS §14), by their key in `sections`. */
export const README_SECTIONS = ['description', 'installation', 'faq', 'changelog', 'screenshots'] as const;
export type ReadmeSection = (typeof README_SECTIONS)[number];
