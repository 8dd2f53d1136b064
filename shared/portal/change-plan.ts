import { NotFoundError } from '../platform/index.js';
import { changePlan, type PaymentDeps, SUBSCRIPTION_NOT_FOUND } from '../billing/index.js';
import { customerIdOf, type PortalDataDeps, type PortalScope } from './customer-scope.js';

/** The customer's own plan change (DECISIONS §15): as the vendor's, on a subscription of the customer with that e-mail only. */
export async function changePortalPlan(deps: PortalDataDeps & PaymentDeps, scope: PortalScope, subscriptionId: string, planId: string) {
  const customerId = await customerIdOf(deps, scope);
  if (!customerId) throw new NotFoundError(SUBSCRIPTION_NOT_FOUND);
  return changePlan(deps, { tenantId: scope.tenantId, subscriptionId, planId, customerId });
}
