import { type Deps, NotFoundError } from '../../platform/index.js';
import { LICENSE_MESSAGES } from '../operations/messages.js';
import { toActivation, type Activation } from './activation-view.js';
import { deactivateActivation } from './deactivation.js';
import { readLicenseById } from './license-by-id.js';

/**
 * `POST /api/activations/{id}/deactivate`: the same transaction as the edge's deactivate. Deactivating
 * an activation that is already deactivated changes nothing and answers it as it is.
 */
export async function deactivateActivationById(deps: Pick<Deps, 'data' | 'clock'>, tenantId: string, activationId: string): Promise<Activation> {
  const { activation: activations, product: products } = deps.data.entities;
  const { data: activation } = await activations.get({ activationId }).go({ consistent: true });
  if (!activation || activation.tenantId !== tenantId) throw new NotFoundError(LICENSE_MESSAGES.activationNotFound);
  if (activation.status !== 'active') return toActivation(activation);
  const [license, { data: product }] = await Promise.all([
    readLicenseById(deps, activation.licenseId),
    products.get({ productId: activation.productId }).go(),
  ]);
  const deactivated = await deactivateActivation(deps, activation, {
    license,
    product: { productId: activation.productId, name: product?.name ?? '' },
  });
  if (deactivated) return toActivation(deactivated);
  // Deactivated by someone else meanwhile: answer the state they left.
  const { data: current } = await activations.get({ activationId }).go({ consistent: true });
  return toActivation(current ?? activation);
}
