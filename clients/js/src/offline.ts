/**
 * The offline fallback: a stored offline license file (`POST /public/v1/licenses/offline`) stands in for the service
 * when it cannot be reached, once its signature, site, validity, key and product check out.
 */
import { OfflineLicenseError } from './errors.js';
import { checkLicenseFile } from './license-file.js';
import type { SigningKeys } from './signing-keys.js';
import type { OfflineValidResult } from './types.js';

export interface OfflineOptions {
  /** Reads the stored offline license file (from disk, localStorage, a bundled asset…); null when there is none. */
  load: () => string | null | undefined | Promise<string | null | undefined>;
  /** Keeps the file `fetchOfflineLicense` receives (overwriting the previous one). */
  save?: (file: string) => void | Promise<void>;
}

/** A clock this far before the file's `issuedAt` has been turned back (to stretch the file's window). */
const CLOCK_SKEW_MS = 5 * 60_000;

const MESSAGES = {
  tampered: 'The offline license file is malformed or its signature does not verify',
  expired: 'The offline license file has expired',
  wrong_domain: 'The offline license file is for another site',
  unknown_key: 'The offline license file is signed by a key this client does not trust',
} as const;

/** The stored file's answer for this key and site, or `OfflineLicenseError` saying why there is none. */
export async function offlineValidation(
  licenseKey: string,
  site: { domain?: string; productSlug?: string },
  context: { offline?: OfflineOptions; keys?: SigningKeys; now: number },
): Promise<OfflineValidResult> {
  const { offline, keys } = context;
  if (!offline || !keys) throw new OfflineLicenseError('not_configured', 'Offline license files need the offline and signing options');
  if (!site.domain) throw new OfflineLicenseError('not_configured', 'An offline license file is checked against the site: pass domain');
  const file = await offline.load();
  if (!file) throw new OfflineLicenseError('missing', 'No offline license file is stored');
  const checked = await checkLicenseFile(file, { keys, domain: site.domain, now: context.now });
  if (checked.verdict !== 'valid') throw new OfflineLicenseError(checked.verdict, MESSAGES[checked.verdict]);
  const { payload } = checked;
  if (payload.licenseKey !== licenseKey) throw new OfflineLicenseError('other_license', 'The offline license file is for another license key');
  if (site.productSlug && payload.productSlug !== site.productSlug) throw new OfflineLicenseError('other_product', 'The offline license file is for another product');
  if (context.now + CLOCK_SKEW_MS < Date.parse(payload.issuedAt)) throw new OfflineLicenseError('clock', 'The clock is earlier than the offline license file was issued');
  return {
    valid: true,
    license: {
      key: payload.licenseKey,
      status: payload.status as OfflineValidResult['license']['status'],
      seats: payload.seats,
      expiresAt: payload.expiresAt,
      // Files issued before features existed carry none.
      features: payload.features ?? [],
    },
    product: { id: payload.productId, slug: payload.productSlug },
    source: 'offline',
    checkedAt: new Date(payload.issuedAt),
    validUntil: new Date(payload.validUntil),
    offlineLicense: payload,
  };
}
