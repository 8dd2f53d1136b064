import { type Deps, NotFoundError } from '../../platform/index.js';
import { couldBeLicenseKey } from '../licenses/license-key.js';
import type { LicenseItem } from '../licenses/license-view.js';
import { readLicense } from '../operations/license-lookup.js';
import type { ActivityRecorder } from '../operations/activity.js';
import type { ProductCatalog } from '../operations/product-catalog.js';
import { type Channel, checkoutUrl, type SigningIdentity, signingIdentityOf } from '../../catalog/index.js';
import { downloadUrl } from './download-url.js';
import { coversProduct, licenseAccess } from './license-access.js';
import { chooseOffer } from './offer.js';
import type { ProductItem, ReleaseCatalog } from './release-catalog.js';
import { updateInfo } from './wordpress.js';

export type UpdateCheckInput = {
  slug: string;
  licenseKey: string;
  baseUrl: string;
  /** The site's channel choice and PHP and WordPress versions (DECISIONS §14); absent ones are not checked. */
  channel?: Channel;
  php?: string;
  wp?: string;
  site?: { domain: string; ipAddress: string; version: string };
};

/**
 * `GET /v1/wp/update-check`: product and releases from the per-slug cache, the key from one strongly
 * consistent read, so a revoked or regenerated key loses `package` at once. The answer describes the release the
 * site is offered (shared/licensing/updates/offer.ts); the installed `version` is not compared (WordPress does that). With the
 * site's domain, the check is recorded as that activation's last check, and counted among the product's installs
 * by version. Answers the product too: whose key signs it. A bundle's key (DECISIONS §23) gets updates of every product
 * the bundle includes; its check is recorded under the product it names, and its renewal is the bundle's plan.
 */
export async function checkForUpdate(
  deps: Pick<Deps, 'data' | 'clock'>,
  context: { products: ProductCatalog; releases: ReleaseCatalog; activity: ActivityRecorder },
  input: UpdateCheckInput,
): Promise<{ info: ReturnType<typeof updateInfo>; product: SigningIdentity }> {
  const { releases } = context;
  // A value that cannot be a key names no license: no read for it (the answer is the unknown key's).
  const [entry, license] = await Promise.all([
    releases.bySlug(input.slug),
    couldBeLicenseKey(input.licenseKey) ? readLicense(deps, input.licenseKey) : undefined,
  ]);
  if (!entry) throw new NotFoundError('Product not found');
  const { product, published } = entry;
  const access = await licenseAccess(context.products, license, product, deps.clock.now());
  const offer = chooseOffer(product, published, access, {
    channel: input.channel,
    php: input.php,
    wp: input.wp,
    rolloutSubject: input.site?.domain ?? input.licenseKey,
  });
  const readme = offer.release && (await releases.readmeOf(product, offer.release));
  const covered = license && coversProduct(access) ? license : undefined;
  if (input.site && covered) {
    await context.activity.domainSeen({ ...covered, productId: product.productId }, input.site.domain, input.site.ipAddress, input.site.version, { php: input.php, wp: input.wp });
  }
  const info = updateInfo(product, offer, {
    packageUrl: offer.downloadable ? downloadUrl(input.baseUrl, offer.release!.releaseId, license!.licenseKey) : undefined,
    readme,
    // The checkout of the license's plan (the renewal a vendor sells); a license issued without a plan has none.
    renewalUrl: covered?.planId ? await renewalUrl(context.products, input.baseUrl, covered.planId, covered, product) : undefined,
  });
  return { info, product: signingIdentityOf(product) };
}

/** The checkout of the license's plan, on the public key of the plan's product: a bundle's plan is sold under the bundle's. */
async function renewalUrl(products: ProductCatalog, baseUrl: string, planId: string, license: LicenseItem, product: ProductItem): Promise<string | undefined> {
  const publicKey = license.productId === product.productId ? product.publicKey : (await products.byId(license.productId))?.publicKey;
  return publicKey && checkoutUrl(baseUrl, planId, publicKey);
}
