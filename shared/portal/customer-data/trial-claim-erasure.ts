import { claimAddress } from '../../billing/index.js';
import { transact } from '../../platform/data/index.js';
import type { Deps } from '../../platform/index.js';
import type { ErasureSubject } from './erased-data.js';

/**
 * The customer's no-card trial claims (DECISIONS §20) lose their e-mail: each is keyed by the address's claim form,
 * per product, so one get per product of the tenant finds them; each moves to the erased address in one transaction
 * (the claim's record stays: its license, plan, start and conversion). The erased address is free to start a trial
 * again, as it is to be a customer again.
 */
export async function eraseTrialClaims(deps: Pick<Deps, 'data'>, tenantId: string, subject: ErasureSubject): Promise<void> {
  const { product, trialClaim } = deps.data.entities;
  const email = claimAddress(subject.email);
  const { data: products } = await product.query.byTenant({ tenantId }).go({ pages: 'all', attributes: ['productId'] });
  if (products.length === 0) return;
  const { data: claims } = await trialClaim.get(products.map(({ productId }) => ({ productId, email }))).go({ consistent: true });
  await Promise.all(
    claims
      .filter((claim) => claim.tenantId === tenantId)
      .map((claim) =>
        transact(deps.data, (tx) => ({
          old: tx.trialClaim
            .delete({ productId: claim.productId, email })
            .where(({ licenseId }, { eq }) => eq(licenseId, claim.licenseId))
            .commit(),
          erased: tx.trialClaim.put({ ...claim, email: subject.erasedEmail }).commit(),
        })),
      ),
  );
}
