import { Entity } from 'electrodb';
import { PRODUCT_TYPES, PRODUCT_STATUSES, UPDATES_AFTER_EXPIRY, PLAN_CHANGE_PRORATIONS } from '../attribute-values.js';
import { globalIndex, model, primaryKey } from '../keys.js';

export const productEntity = () =>
  new Entity({
    model: model('product'),
    attributes: {
      productId: { type: 'string', required: true },
      tenantId: { type: 'string', required: true },
      name: { type: 'string', required: true },
      slug: { type: 'string', required: true },
      description: { type: 'string' },
      productType: { type: PRODUCT_TYPES, required: true },
      status: { type: PRODUCT_STATUSES, required: true },
      isPremium: { type: 'boolean', required: true },
      requiresLicense: { type: 'boolean', required: true },
      managesReleases: { type: 'boolean', required: true },
      licensePrefix: { type: 'string', required: true },
      logoUrl: { type: 'string' },
      bannerUrl: { type: 'string' },
      readmeUrl: { type: 'string' },
      homepage: { type: 'string' },
      icon: { type: 'string' },
      color: { type: 'string' },
      tested: { type: 'string' },
      requires: { type: 'string' },
      requiresPhp: { type: 'string' },
      /** Absent: `none`. */
      updatesAfterExpiry: { type: UPDATES_AFTER_EXPIRY },
      publicKey: { type: 'string', required: true },
      /** Kept by plan writes, so list items need no extra reads. */
      plansCount: { type: 'number', required: true, default: 0 },
      /** Kept by release writes: the newest published release's version. */
      latestVersion: { type: 'string' },
      /**
       * Every published release holds a `versionClaim` (DECISIONS §22). Set at creation, or once the releases published
       * before claims existed have claimed theirs (shared/catalog/releases/version-claims.ts); absent: not yet.
       */
      versionsClaimed: { type: 'boolean' },
      /** Set by every release write: an update check whose cached releases are older reads them again. */
      releasesChangedAt: { type: 'string' },
      /**
       * Domain patterns of staging and local sites, which activate without taking a seat (shared/licensing/operations/staging.ts).
       * Absent: the defaults; an empty list: none.
       */
      stagingPatterns: { type: 'list', items: { type: 'string' } },
      /** Staging activations one license may hold at once; absent: the default (3). */
      stagingActivationLimit: { type: 'number' },
      /**
       * Origins checkout may send a buyer back to with their key (shared/catalog/products/return-origins.ts), normalized;
       * absent or empty: any origin.
       */
      returnOrigins: { type: 'list', items: { type: 'string' } },
      /** When a subscription's plan change takes effect, and how it is prorated (DECISIONS §15); absent: the default. */
      planChangeProration: { type: PLAN_CHANGE_PRORATIONS },
      /**
       * The product's Ed25519 signing keys (shared/catalog/products/signing-keys.ts): the current one and those rotated out
       * less than their grace period ago. Each private key is sealed (shared/platform/secrets/secret-box.ts). They travel
       * with the product item, so the license operations' product cache brings them: signing costs no read.
       */
      signingKeys: {
        type: 'list',
        items: {
          type: 'map',
          properties: {
            keyId: { type: 'string', required: true },
            /** Base64 of the raw 32-byte Ed25519 public key. */
            publicKey: { type: 'string', required: true },
            /** The PKCS#8 private key (base64), sealed under the product's tenant and this key's id. */
            sealedPrivateKey: { type: 'string', required: true },
            createdAt: { type: 'string', required: true },
            /** Set when the key is rotated out: verifiers accept it until then. */
            expiresAt: { type: 'string' },
          },
        },
      },
      /** Which of `signingKeys` signs now; every write of the keys is conditioned on it. */
      signingKeyId: { type: 'string' },
      /** Days an offline license file stays valid (default 30: `OFFLINE_VALIDITY_DAYS`). */
      offlineValidityDays: { type: 'number' },
      /** Days before expiry a non-renewing license is reminded (shared/licensing/licenses/renewal-reminders.ts); absent: `[7]`. */
      renewalReminderDays: { type: 'list', items: { type: 'number' } },
      /** Days after a failed renewal payment's period end that its license stays valid (DECISIONS §15); absent: 7. */
      graceDays: { type: 'number' },
      /**
       * A bundle's included products (DECISIONS §23): its licenses are one key for each. They travel with the product
       * item, so the license operations' cached catalog knows them: a bundle key's validate reads nothing more.
       */
      includes: { type: 'list', items: { type: 'string' } },
      /** The dashboard and license e-mails show the Composer snippet (DECISIONS §24); absent: false. */
      composerEnabled: { type: 'boolean' },
      /** What plans may switch on inside the software (DECISIONS §23), keys unique; absent: none. */
      features: {
        type: 'list',
        items: { type: 'map', properties: { key: { type: 'string', required: true }, name: { type: 'string', required: true } } },
      },
      createdAt: { type: 'string', required: true },
      updatedAt: { type: 'string', required: true },
      deletedAt: { type: 'string' },
    },
    indexes: {
      byId: primaryKey(['productId']),
      byTenant: globalIndex(1, ['tenantId'], ['createdAt', 'productId']),
    },
  });

/** Holds a slug for one product across the deployment: the edge finds products by slug alone. */
export const productSlugEntity = () =>
  new Entity({
    model: model('productSlug'),
    attributes: {
      slug: { type: 'string', required: true },
      productId: { type: 'string', required: true },
      tenantId: { type: 'string', required: true },
    },
    indexes: { bySlug: primaryKey(['slug']) },
  });

/** Maps a product's `pk_` public key to the product, for the public API. */
export const productPublicKeyEntity = () =>
  new Entity({
    model: model('productPublicKey'),
    attributes: {
      publicKey: { type: 'string', required: true },
      productId: { type: 'string', required: true },
      tenantId: { type: 'string', required: true },
    },
    indexes: { byKey: primaryKey(['publicKey']) },
  });
