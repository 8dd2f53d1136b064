import { BadRequestError, type Deps, ForbiddenError, NotFoundError } from '../../platform/index.js';
import type { LicenseItem } from '../licenses/license-view.js';
import { includedProducts, isLiveProductOf } from './coverage.js';
import { LICENSE_MESSAGES } from './messages.js';
import type { ProductCatalog, ProductRef } from './product-catalog.js';

/** How a caller names the license and, optionally, the product it expects it to belong to. */
export type LicenseClaim = {
  licenseKey: string;
  /** Public API: the product's `pk_` key; unknown → 404 `Invalid public_key`, another product's → 404. */
  publicKey?: string;
  /** Optional check that the license is this product's (400 when it is not). */
  productSlug?: string;
};

/**
 * `product`: the product the call is about (a bundle license's: the included product named, else the bundle), whose
 * key signs the answer. `bundle`: for a bundle's license, the bundle and its included products still live.
 */
export type ResolvedLicense = { license: LicenseItem; product: ProductRef; bundle?: { product: ProductRef; products: ProductRef[] } };

/**
 * The license item by key: one strongly consistent GetItem, so every answer reflects the latest write.
 * The hottest read of the service, so a direct one (shared/platform/data/direct-requests.ts); a failure surfaces as the
 * SDK's own error, which the error handler maps to 503.
 */
export function readLicense(deps: Pick<Deps, 'data'>, licenseKey: string): Promise<LicenseItem | undefined> {
  return deps.data.reads.license.get({ licenseKey }, { consistent: true });
}

/**
 * Finds the license and its product and checks the claim, in the order of DECISIONS §4: the public key,
 * the key itself, then the product. A deleted product's licenses are unknown on public surfaces. A bundle's license
 * (DECISIONS §23) is one key for each product the bundle includes: named by one of them (its public key or
 * `product_slug`), it answers for that product; named by another product of the vendor, 403 `License does not cover
 * this product`. The bundle and its products come from the cached catalog: no read beyond the license's.
 */
export async function resolveLicense(deps: Pick<Deps, 'data'>, catalog: ProductCatalog, claim: LicenseClaim): Promise<ResolvedLicense> {
  const [keyProduct, license] = await Promise.all([
    claim.publicKey === undefined ? undefined : catalog.byPublicKey(claim.publicKey),
    readLicense(deps, claim.licenseKey),
  ]);
  if (claim.publicKey !== undefined && (!keyProduct || keyProduct.deleted)) throw new NotFoundError(LICENSE_MESSAGES.invalidPublicKey);
  if (!license) throw new NotFoundError(LICENSE_MESSAGES.notFound);
  const owner = keyProduct?.productId === license.productId ? keyProduct : await catalog.byId(license.productId);
  if (!isLiveProductOf(owner, license.tenantId)) throw new NotFoundError(LICENSE_MESSAGES.notFound);
  if (!owner.includes) {
    if (keyProduct && keyProduct.productId !== license.productId) throw new NotFoundError(LICENSE_MESSAGES.notFound);
    if (claim.productSlug !== undefined && claim.productSlug !== owner.slug) throw new BadRequestError(LICENSE_MESSAGES.wrongProduct);
    return { license, product: owner };
  }
  // Another vendor's public key knows nothing of this license.
  if (keyProduct && keyProduct.tenantId !== license.tenantId) throw new NotFoundError(LICENSE_MESSAGES.notFound);
  const products = await includedProducts(catalog, owner);
  const covered = (product: ProductRef | undefined) => (product && (product === owner || products.some((p) => p.productId === product.productId)) ? product : undefined);
  let named: ProductRef | undefined = keyProduct ?? owner;
  if (claim.productSlug !== undefined && claim.productSlug !== named.slug) {
    // A public key names its product: a slug of another is the usual mismatch.
    if (keyProduct) throw new BadRequestError(LICENSE_MESSAGES.wrongProduct);
    named = products.find((product) => product.slug === claim.productSlug);
  }
  named = covered(named);
  if (!named) throw new ForbiddenError(LICENSE_MESSAGES.notCovered);
  // Looked up last, so the answer is signed with its key (the catalog reports each product a request finds).
  await catalog.byId(named.productId);
  return { license, product: named, bundle: { product: owner, products } };
}
