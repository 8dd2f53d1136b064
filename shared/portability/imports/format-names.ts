/** The formats `POST /api/imports` reads (DECISIONS §16), by their `format` parameter. */
export const IMPORT_FORMATS = ['jsonl', 'csv', 'edd', 'woocommerce', 'freemius', 'lemonsqueezy', 'gumroad'] as const;
export type ImportFormatName = (typeof IMPORT_FORMATS)[number];
