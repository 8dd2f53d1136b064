import { type Deps, TtlCache } from '../../platform/index.js';
import { type Feature, OFFLINE_VALIDITY_DAYS, signingIdentityOf, type SigningKeyRef, type StoredSigningKey } from '../../catalog/index.js';
import { stagingRules, type StagingRules } from './staging.js';

/**
 * What license operations show and check of a product, and what signs its answers: its current signing key
 * (sealed) and every key, for `GET /public/v1/signing-key`. They come with the product item, so they cost no read.
 * `staging`: which domains are staging sites and how many a license may hold (compiled once per cached product);
 * absent, the defaults.
 */
export type ProductRef = {
  productId: string;
  tenantId: string;
  name: string;
  slug: string;
  /** Its `pk_` key as last read (checkout links; never to identify a caller, for which byPublicKey reads afresh). */
  publicKey: string;
  deleted: boolean;
  signingKey?: SigningKeyRef;
  signingKeys: StoredSigningKey[];
  signingKeyId?: string;
  offlineValidityDays: number;
  staging?: StagingRules;
  /** Origins checkout may send buyers back to (shared/catalog/products/return-origins.ts); absent or empty: any. */
  returnOrigins?: string[];
  /** What an expired license may still download (DECISIONS §14); absent: nothing. */
  updatesAfterExpiry?: 'none' | 'releasedBeforeExpiry';
  /** A bundle's included products (DECISIONS §23); absent for any other product. */
  includes?: string[];
  /** What its plans may grant (DECISIONS §23), for the public plans list. */
  features: Feature[];
};

/** The spec's validation cache lifetime (SERVICE-SPEC §8): the bound on seeing a product write made elsewhere. */
const PRODUCT_CACHE_TTL_MS = 60_000;

export type ProductCatalog = ReturnType<typeof createProductCatalog>;

/**
 * Products by id for the license operations, cached for the container that builds the catalog
 * (each surface builds its own, as each Lambda has its own), so a warm validate costs only the read of its
 * license item. A product renamed or deleted through the management API is seen within
 * PRODUCT_CACHE_TTL_MS (its staging patterns and limit too); a public key is read on every call instead, so a replaced key, or the key of a
 * deleted product (deleting removes its mapping), stops identifying the product at once. Lookups that
 * find nothing are not cached.
 */
export function createProductCatalog(deps: Pick<Deps, 'data'>) {
  // Readers are named when used, not here: a container builds only those its requests need (shared/platform/data/service.ts).
  const { reads } = deps.data;
  const byId = new TtlCache<ProductRef>(PRODUCT_CACHE_TTL_MS);

  const productById = (productId: string) =>
    byId.get(productId, async () => {
      const data = await reads.product.get({ productId });
      if (!data) return undefined;
      return {
        ...signingIdentityOf(data),
        name: data.name,
        slug: data.slug,
        publicKey: data.publicKey,
        deleted: Boolean(data.deletedAt),
        signingKeys: data.signingKeys ?? [],
        signingKeyId: data.signingKeyId,
        offlineValidityDays: data.offlineValidityDays ?? OFFLINE_VALIDITY_DAYS,
        staging: stagingRules(data.stagingPatterns, data.stagingActivationLimit),
        returnOrigins: data.returnOrigins,
        updatesAfterExpiry: data.updatesAfterExpiry,
        ...(data.productType === 'bundle' && { includes: data.includes ?? [] }),
        features: data.features ?? [],
      };
    });

  return {
    byId: productById,
    /** Strongly consistent, beside the license read: a replaced or deleted product's key must stop at once. */
    async byPublicKey(publicKey: string): Promise<ProductRef | undefined> {
      const data = await reads.productPublicKey.get({ publicKey }, { consistent: true });
      return data ? productById(data.productId) : undefined;
    },
  };
}

/**
 * The catalog as one request sees it: every live product it finds is reported to `seen`, so that a signed route
 * (shared/licensing/signing/signed-answers.ts) knows whose key signs its answer, refusals included, without the license
 * operations having to say. A deleted product is not reported: its answers are those of an unknown product.
 */
export function observedCatalog(catalog: ProductCatalog, seen: (product: ProductRef) => void): ProductCatalog {
  return new ObservedCatalog(catalog, seen);
}

/** A class, not an object of closures: one is built per request, and its methods are made once. */
class ObservedCatalog implements ProductCatalog {
  constructor(
    private readonly catalog: ProductCatalog,
    private readonly seen: (product: ProductRef) => void,
  ) {}

  async byId(productId: string): Promise<ProductRef | undefined> {
    return this.report(await this.catalog.byId(productId));
  }

  async byPublicKey(publicKey: string): Promise<ProductRef | undefined> {
    return this.report(await this.catalog.byPublicKey(publicKey));
  }

  private report(product: ProductRef | undefined): ProductRef | undefined {
    if (product && !product.deleted) this.seen(product);
    return product;
  }
}
