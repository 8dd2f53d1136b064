import { type Deps, hasPublicKeyShape, NotFoundError } from '../../platform/index.js';
import { LICENSE_MESSAGES } from '../operations/messages.js';
import { type PublicSigningKey, publicSigningKeys } from '../../catalog/index.js';

/**
 * The public halves of a product's valid signing keys (the current one first, then those in their grace period),
 * by its public key: what a client verifies signed answers and offline license files with. Read afresh (two
 * strongly consistent reads, not the 60 s product cache), so a rotation is listed at once: a client that meets
 * a key id it does not know fetches this list again and finds it. Containers sign with the new key once their
 * product cache takes it in (at most 60 s); meanwhile the old key is still listed, in its grace period.
 */
export async function signingKeysOf(deps: Pick<Deps, 'data' | 'clock'>, publicKey: string): Promise<PublicSigningKey[]> {
  const { entities } = deps.data;
  const ref = hasPublicKeyShape(publicKey) ? (await entities.productPublicKey.get({ publicKey }).go({ consistent: true })).data : undefined;
  const product = ref ? (await entities.product.get({ productId: ref.productId }).go({ consistent: true })).data : undefined;
  if (!product || product.deletedAt || product.publicKey !== publicKey) throw new NotFoundError(LICENSE_MESSAGES.invalidPublicKey);
  return publicSigningKeys(product, deps.clock.now());
}
