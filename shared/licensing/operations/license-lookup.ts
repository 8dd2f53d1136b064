import { BadRequestError, type Deps, NotFoundError } from '../../platform/index.js';
import type { LicenseItem } from '../licenses/license-view.js';
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

export type ResolvedLicense = { license: LicenseItem; product: ProductRef };

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
 * the key itself, then the product. A deleted product's licenses are unknown on public surfaces.
 */
export async function resolveLicense(deps: Pick<Deps, 'data'>, catalog: ProductCatalog, claim: LicenseClaim): Promise<ResolvedLicense> {
  const [keyProduct, license] = await Promise.all([
    claim.publicKey === undefined ? undefined : catalog.byPublicKey(claim.publicKey),
    readLicense(deps, claim.licenseKey),
  ]);
  if (claim.publicKey !== undefined && (!keyProduct || keyProduct.deleted)) throw new NotFoundError(LICENSE_MESSAGES.invalidPublicKey);
  if (!license) throw new NotFoundError(LICENSE_MESSAGES.notFound);
  if (keyProduct && keyProduct.productId !== license.productId) throw new NotFoundError(LICENSE_MESSAGES.notFound);
  const product = keyProduct ?? (await catalog.byId(license.productId));
  if (!product || product.deleted || product.tenantId !== license.tenantId) throw new NotFoundError(LICENSE_MESSAGES.notFound);
  if (claim.productSlug !== undefined && claim.productSlug !== product.slug) throw new BadRequestError(LICENSE_MESSAGES.wrongProduct);
  return { license, product };
}
