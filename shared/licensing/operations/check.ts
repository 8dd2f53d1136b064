import type { Deps } from '../../platform/index.js';
import { assertUsable } from './license-state.js';
import { resolveLicense, type LicenseClaim } from './license-lookup.js';
import type { SeatHolder } from './seat-holder.js';
import type { LicenseContext } from './validate.js';

/**
 * Whether the license is active on a (normalized) domain or a machine. A license that cannot be used (expired,
 * suspended, revoked) answers its error rather than a bare `false`, so the plugin can say why.
 */
export async function checkActivation(
  deps: Pick<Deps, 'data' | 'clock'>,
  context: LicenseContext,
  input: LicenseClaim & { holder: SeatHolder; ipAddress: string; version?: string },
): Promise<{ activationId: string | null; features: string[] }> {
  const { license } = await resolveLicense(deps, context.catalog, input);
  assertUsable(license, deps.clock.now());
  const data = await deps.data.reads.activeDomain.get({ licenseId: license.licenseId, domain: input.holder.holdKey }, { consistent: true });
  const features = license.features ?? [];
  if (!data) return { activationId: null, features };
  await context.activity.domainSeen(license, input.holder.holdKey, input.ipAddress, input.version);
  return { activationId: data.activationId, features };
}
