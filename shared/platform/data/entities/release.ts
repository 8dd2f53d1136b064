import { Entity } from 'electrodb';
import { CHANNELS, PLATFORMS, README_SECTIONS, RELEASE_STATUSES } from '../attribute-values.js';

import { globalIndex, model, primaryKey } from '../keys.js';

export const releaseEntity = () =>
  new Entity({
    model: model('release'),
    attributes: {
      releaseId: { type: 'string', required: true },
      tenantId: { type: 'string', required: true },
      productId: { type: 'string', required: true },
      version: { type: 'string', required: true },
      releaseNotes: { type: 'string' },
      filePath: { type: 'string', required: true },
      fileName: { type: 'string', required: true },
      fileSize: { type: 'number', required: true },
      /** SHA-1 (hex) of the ZIP as uploaded, the Composer repository's `shasum`; absent on releases made before it. */
      fileSha1: { type: 'string' },
      status: { type: RELEASE_STATUSES, required: true },
      downloadCount: { type: 'number', required: true, default: 0 },
      tested: { type: 'string' },
      requires: { type: 'string' },
      requiresPhp: { type: 'string' },
      /** Absent on releases made before channels: `stable`. */
      channel: { type: CHANNELS },
      /** Share of sites offered the release, 1–100 (shared/catalog/releases/channels.ts); absent: 100. */
      rolloutPercent: { type: 'number' },
      /** Set when the release's ZIP held a readme.txt, whose sections and notices are the `releaseReadme` item. */
      hasReadme: { type: 'boolean' },
      /**
       * The release's desktop files (DECISIONS §26), at most one per platform: on the release item, which the update
       * feeds read with all their product's releases, so a feed costs no read beyond the update check's.
       */
      platformFiles: {
        type: 'list',
        items: {
          type: 'map',
          properties: {
            platform: { type: PLATFORMS, required: true },
            filePath: { type: 'string', required: true },
            fileName: { type: 'string', required: true },
            fileSize: { type: 'number', required: true },
            /** SHA-512 of the file, base64 (as electron-updater writes and checks it). */
            sha512: { type: 'string', required: true },
            /** The vendor's own signature of the file (Tauri's minisign, Sparkle's EdDSA), served as given. */
            signature: { type: 'string' },
            createdAt: { type: 'string', required: true },
          },
        },
      },
      releasedAt: { type: 'string' },
      createdAt: { type: 'string', required: true },
      updatedAt: { type: 'string', required: true },
    },
    indexes: {
      byId: primaryKey(['releaseId']),
      byProduct: globalIndex(1, ['productId'], ['createdAt', 'releaseId']),
    },
  });

/**
 * What a release's readme.txt gives the update check beyond the release's own fields (shared/catalog/releases/readme/):
 * sections as safe HTML and the upgrade notices by version. Apart from the release item, which the update check
 * reads with all its product's releases, so only the release offered brings its readme.
 */
export const releaseReadmeEntity = () =>
  new Entity({
    model: model('releaseReadme'),
    attributes: {
      releaseId: { type: 'string', required: true },
      tenantId: { type: 'string', required: true },
      /** The sections the readme has, as HTML. */
      sections: {
        type: 'map',
        required: true,
        properties: Object.fromEntries(README_SECTIONS.map((name) => [name, { type: 'string' }])) as Record<(typeof README_SECTIONS)[number], { type: 'string' }>,
      },
      /** From `== Upgrade Notice ==`, as plain text. */
      upgradeNotices: {
        type: 'list',
        required: true,
        items: { type: 'map', properties: { version: { type: 'string', required: true }, notice: { type: 'string', required: true } } },
      },
      createdAt: { type: 'string', required: true },
    },
    indexes: { byRelease: primaryKey(['releaseId']) },
  });

/**
 * Holds one published version of a product (DECISIONS §22): keyed by the version as compared (`versionKey`, shared/catalog/
 * releases/versions.ts: `1.2` and `1.2.0` are one key), created only if absent in the transaction that publishes a
 * release, deleted (on condition it is that release's) in the one that unpublishes, deletes or renumbers it. So two
 * published releases of one product never share a version, whatever the timing.
 */
export const versionClaimEntity = () =>
  new Entity({
    model: model('versionClaim'),
    attributes: {
      productId: { type: 'string', required: true },
      versionKey: { type: 'string', required: true },
      tenantId: { type: 'string', required: true },
      /** The release that holds the version, and the version as it spells it. */
      releaseId: { type: 'string', required: true },
      version: { type: 'string', required: true },
      claimedAt: { type: 'string', required: true },
    },
    indexes: { byVersion: primaryKey(['productId', 'versionKey']) },
  });
