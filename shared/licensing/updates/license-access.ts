import type { LicenseItem } from '../licenses/license-view.js';
import { licenseProblem } from '../operations/license-state.js';
import { coverageProblem } from '../operations/coverage.js';
import { LICENSE_MESSAGES } from '../operations/messages.js';
import type { ProductCatalog } from '../operations/product-catalog.js';
import { type Channel, channelAllows, DEFAULT_CHANNEL } from '../../catalog/index.js';

type UpdatesAfterExpiry = 'none' | 'releasedBeforeExpiry';

/**
 * Which releases a key may download (DECISIONS §14): none (with the reason, the license message), every published
 * release on its channels (a valid license), or, for an expired license of a product whose `updatesAfterExpiry` is
 * `releasedBeforeExpiry`, those on its channels published before its `expiresAt`. Revoked and suspended licenses
 * never keep anything. A license of another product has none (`License does not belong to this product`), unless it
 * is a bundle's that includes this product (DECISIONS §23: shared/licensing/operations/coverage.ts decides, from the
 * cached catalog, so a warm call reads nothing); a product outside the bundle: `License does not cover this product`.
 */
export type LicenseAccess =
  | { kind: 'none'; reason: string; expired: boolean }
  | { kind: 'channels'; channel: Channel; releasedBefore?: string };

export async function licenseAccess(
  catalog: ProductCatalog,
  license: LicenseItem | undefined,
  product: { productId: string; updatesAfterExpiry?: UpdatesAfterExpiry },
  now: Date,
): Promise<LicenseAccess> {
  if (!license) return { kind: 'none', reason: LICENSE_MESSAGES.notFound, expired: false };
  const uncovered = await coverageProblem(catalog, license, product.productId);
  if (uncovered) return { kind: 'none', reason: uncovered, expired: false };
  const channel = license.channel ?? DEFAULT_CHANNEL;
  const problem = licenseProblem(license, now);
  if (problem === undefined) return { kind: 'channels', channel };
  const expired = problem === LICENSE_MESSAGES.expired;
  if (expired && product.updatesAfterExpiry === 'releasedBeforeExpiry' && license.expiresAt) {
    return { kind: 'channels', channel, releasedBefore: license.expiresAt };
  }
  return { kind: 'none', reason: problem, expired };
}

type ReleaseReach = { channel?: Channel; releasedAt?: string };

/** True when the access covers the release (its channel, and its publication before expiry where that counts). */
export function mayReceive(access: LicenseAccess, release: ReleaseReach): boolean {
  if (access.kind === 'none') return false;
  if (!channelAllows(access.channel, release.channel ?? DEFAULT_CHANNEL)) return false;
  return access.releasedBefore === undefined || (release.releasedAt !== undefined && release.releasedAt < access.releasedBefore);
}

/** True when the license has expired (and only expired): its update check says what renewing would bring. */
export const isExpired = (access: LicenseAccess) => (access.kind === 'none' ? access.expired : access.releasedBefore !== undefined);

/** False when the access was refused because the license is of another product (outside its bundle, if a bundle's). */
export const coversProduct = (access: LicenseAccess) =>
  access.kind === 'channels' || (access.reason !== LICENSE_MESSAGES.wrongProduct && access.reason !== LICENSE_MESSAGES.notCovered && access.reason !== LICENSE_MESSAGES.notFound);
