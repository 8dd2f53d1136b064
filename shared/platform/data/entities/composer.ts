import { Entity } from 'electrodb';
import { model, primaryKey } from '../keys.js';

/**
 * A tenant's account settings (DECISIONS §24: its Composer vendor name), keyed by the tenant like its payment provider,
 * so the edge reads it in one GetItem beside a Composer request's product.
 */
export const accountSettingsEntity = () =>
  new Entity({
    model: model('accountSettings'),
    attributes: {
      tenantId: { type: 'string', required: true },
      composerVendor: { type: 'string', required: true },
      updatedAt: { type: 'string', required: true },
    },
    indexes: { byTenant: primaryKey(['tenantId']) },
  });

/** Holds a Composer vendor name for one tenant across the deployment: written with the settings, only if absent. */
export const composerVendorEntity = () =>
  new Entity({
    model: model('composerVendor'),
    attributes: {
      composerVendor: { type: 'string', required: true },
      tenantId: { type: 'string', required: true },
    },
    indexes: { byVendor: primaryKey(['composerVendor']) },
  });

/**
 * A version of a product installed through the Composer repository with a license key: created only if absent, so each
 * key and version counts as one sighting in the overview however often Composer downloads it. In the license key's
 * partition, which the edge may write.
 */
export const composerInstallEntity = () =>
  new Entity({
    model: model('composerInstall'),
    attributes: {
      licenseKey: { type: 'string', required: true },
      releaseId: { type: 'string', required: true },
      installedAt: { type: 'string', required: true },
    },
    indexes: { byKey: primaryKey(['licenseKey'], ['releaseId']) },
  });
