import { eddFormat } from './formats/edd.js';
import type { ImportFormat, ImportOptions } from './formats/format.js';
import { freemiusFormat } from './formats/freemius.js';
import { gumroadFormat } from './formats/gumroad.js';
import { jsonlFormat } from './formats/jsonl.js';
import { lemonSqueezyFormat } from './formats/lemonsqueezy.js';
import { oursCsv } from './formats/ours.js';
import { wooCommerceFormat } from './formats/woocommerce.js';
import { MAX_SEATS } from '../../licensing/index.js';
import type { ImportFormatName } from './format-names.js';

/**
 * Seats of a license its source sold without a limit (EDD's 0 or `Unlimited`, an empty WooCommerce or Freemius
 * maximum, Lemon Squeezy's null): the most a license may have, so every site keeps working.
 */
export const UNLIMITED_SEATS = MAX_SEATS;

/** The reader of each format, with the import's options. */
export function importFormat(name: ImportFormatName, options: ImportOptions): ImportFormat {
  switch (name) {
    case 'jsonl':
      return jsonlFormat;
    case 'csv':
      return oursCsv;
    case 'edd':
      return eddFormat(UNLIMITED_SEATS, options);
    case 'woocommerce':
      return wooCommerceFormat(UNLIMITED_SEATS, options);
    case 'freemius':
      return freemiusFormat(UNLIMITED_SEATS);
    case 'lemonsqueezy':
      return lemonSqueezyFormat(UNLIMITED_SEATS);
    case 'gumroad':
      return gumroadFormat(options.now);
  }
}
