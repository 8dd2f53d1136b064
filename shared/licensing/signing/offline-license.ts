import { sign } from 'node:crypto';
import { BadRequestError, type Deps, ServiceUnavailableError } from '../../platform/index.js';
import { logger } from '../../platform/observability/index.js';
import { assertUsable } from '../operations/license-state.js';
import { resolveLicense, type LicenseClaim } from '../operations/license-lookup.js';
import { LICENSE_MESSAGES } from '../operations/messages.js';
import type { ProductCatalog } from '../operations/product-catalog.js';
import type { SeatHolder } from '../operations/seat-holder.js';
import { formatLicenseFile, type LicenseFilePayload } from './license-file.js';
import type { Keyring } from './response-signer.js';

const DAY_MS = 86_400_000;

/** A product made before signing keys existed has none until its vendor rotates one in (docs/api.md). */
export const OFFLINE_UNAVAILABLE = 'Offline license files are not available for this product';

export type OfflineLicense = { licenseFile: string; keyId: string; issuedAt: string; validUntil: string };

/**
 * An offline license file for a usable license on one of its active domains or machines, signed with the product's current
 * key. Checked in the order of the other license operations (public key, key, license state), then the domain:
 * one that is not an active activation of the license is `Activation not found`. Reads: the public key and the
 * license in parallel, then the domain's activation; nothing is written.
 */
export async function issueOfflineLicense(
  deps: Pick<Deps, 'data' | 'clock'>,
  context: { catalog: ProductCatalog; keyring: Keyring },
  input: LicenseClaim & { holder: SeatHolder },
): Promise<OfflineLicense> {
  const { license, product } = await resolveLicense(deps, context.catalog, input);
  const now = deps.clock.now();
  assertUsable(license, now);
  const active = await deps.data.reads.activeDomain.get({ licenseId: license.licenseId, domain: input.holder.holdKey }, { consistent: true });
  if (!active) throw new BadRequestError(LICENSE_MESSAGES.activationNotFound);
  let key;
  try {
    key = await context.keyring.keyFor(product);
  } catch (error) {
    logger.error('Signing key could not be opened', { error, productId: product.productId });
    throw new ServiceUnavailableError();
  }
  if (!key) throw new BadRequestError(OFFLINE_UNAVAILABLE);

  const windowEnd = now.getTime() + product.offlineValidityDays * DAY_MS;
  const licenseEnd = license.expiresAt === undefined ? Infinity : Date.parse(license.expiresAt);
  const payload: LicenseFilePayload = {
    format: 'license-file',
    version: 1,
    keyId: key.keyId,
    productId: product.productId,
    productSlug: product.slug,
    licenseId: license.licenseId,
    licenseKey: license.licenseKey,
    status: license.status,
    seats: license.seats,
    expiresAt: license.expiresAt ?? null,
    features: license.features ?? [],
    activationId: active.activationId,
    // A device's file names its machine in place of a domain (DECISIONS §18).
    ...(input.holder.kind === 'machine' ? { machine: input.holder.machine } : { domain: input.holder.domain }),
    issuedAt: now.toISOString(),
    validUntil: new Date(Math.min(windowEnd, licenseEnd)).toISOString(),
  };
  const licenseFile = formatLicenseFile(payload, (message) => sign(null, message, key.privateKey));
  return { licenseFile, keyId: key.keyId, issuedAt: payload.issuedAt, validUntil: payload.validUntil };
}
