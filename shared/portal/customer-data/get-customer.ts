import { productSummaries, toLicense } from '../../licensing/index.js';
import type { Deps } from '../../platform/index.js';
import { toPayment, toSubscription } from '../../billing/index.js';
import { loadCustomer, toCustomer } from '../../customers/index.js';

/**
 * A customer with its licenses (the tenant's licenses carrying its e-mail, the rule the portal
 * uses too), payments and subscriptions, each newest first.
 */
export async function getCustomer(deps: Pick<Deps, 'data' | 'clock'>, tenantId: string, customerId: string) {
  const customer = await loadCustomer(deps, tenantId, customerId);
  const { license, payment, subscription } = deps.data.entities;
  const [licenses, payments, subscriptions] = await Promise.all([
    license.query.byEmail({ tenantId, customerEmail: customer.email }).go({ order: 'desc', pages: 'all' }),
    payment.query.byCustomer({ customerId }).go({ order: 'desc', pages: 'all' }),
    subscription.query.byCustomer({ customerId }).go({ order: 'desc', pages: 'all' }),
  ]);
  const products = await productSummaries(deps, licenses.data.map((item) => item.productId));
  return {
    ...toCustomer(customer),
    licenses: licenses.data.map((item) => toLicense(item, products.get(item.productId) ?? { id: item.productId, name: '', slug: '' }, deps.clock.now())),
    payments: payments.data.map(toPayment),
    subscriptions: subscriptions.data.map(toSubscription),
  };
}
