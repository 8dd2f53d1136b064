import { BadRequestError, type Deps } from '../../platform/index.js';
import { deactivateActivation } from '../activations/deactivation.js';
import { resolveLicense, type LicenseClaim } from './license-lookup.js';
import { LICENSE_MESSAGES } from './messages.js';
import type { SeatHolder } from './seat-holder.js';
import type { LicenseContext } from './validate.js';

/** Names the activation to end: by id, by (normalized) domain or machine, or both (then both must match). */
export type ActivationTarget = { activationId?: string; holder?: SeatHolder };

/**
 * Deactivates one active activation of the license. Allowed whatever the license's state: freeing a
 * seat of an expired or suspended license harms nothing, and an uninstalling plugin should succeed.
 * No such active activation is a 400: on these surfaces 404 means an unknown key (SERVICE-SPEC §7).
 */
export async function deactivateLicense(
  deps: Pick<Deps, 'data' | 'clock'>,
  context: LicenseContext,
  input: LicenseClaim & ActivationTarget & { ipAddress: string },
): Promise<void> {
  const { license, product } = await resolveLicense(deps, context.catalog, input);
  const { activation: activations, activeDomain } = deps.data.entities;
  let activationId = input.activationId;
  if (activationId === undefined) {
    const { data } = await activeDomain.get({ licenseId: license.licenseId, domain: input.holder!.holdKey }).go({ consistent: true });
    activationId = data?.activationId;
  }
  const { data: activation } = activationId ? await activations.get({ activationId }).go({ consistent: true }) : { data: null };
  const matches =
    activation &&
    activation.licenseId === license.licenseId &&
    activation.status === 'active' &&
    (input.holder === undefined || activation.domain === input.holder.holdKey);
  if (!matches) throw new BadRequestError(LICENSE_MESSAGES.activationNotFound);
  const deactivated = await deactivateActivation(deps, activation, { license, product }, input.ipAddress);
  if (!deactivated) throw new BadRequestError(LICENSE_MESSAGES.activationNotFound);
}
