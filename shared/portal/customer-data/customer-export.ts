import { holdOf, lastCheckIn, readDomainHolds, toActivation } from '../../licensing/index.js';
import { toFeedback } from '../../insights/index.js';
import type { Deps } from '../../platform/index.js';
import { feedbackOf } from './customer-feedback.js';
import { getCustomer } from './get-customer.js';

/**
 * Everything the service holds on one customer (DECISIONS §16), for the vendor to hand over on a data-subject
 * request: the customer, the licenses carrying its e-mail with every activation (domains and the IP addresses
 * recorded, the last check included), its payments and subscriptions, and the feedback it sent.
 */
export async function exportCustomer(deps: Pick<Deps, 'data' | 'clock'>, tenantId: string, customerId: string) {
  const { licenses, payments, subscriptions, ...customer } = await getCustomer(deps, tenantId, customerId);
  const { activation } = deps.data.entities;
  const activations = (
    await Promise.all(licenses.map(async ({ id }) => (await activation.query.byLicense({ licenseId: id }).go({ order: 'desc', pages: 'all' })).data))
  ).flat();
  const holds = await readDomainHolds(deps, activations.filter((item) => item.status === 'active'));
  const activationRecords = activations.map((item) => {
    const checked = { ...item, ...lastCheckIn(holdOf(holds, item), item.activationId) };
    return { ...toActivation(checked), lastIpAddress: checked.lastIpAddress ?? null };
  });
  const feedback = await feedbackOf(deps, tenantId, { email: customer.email, licenseIds: new Set(licenses.map(({ id }) => id)) });
  return {
    exportedAt: deps.clock.now().toISOString(),
    customer,
    licenses: licenses.map((license) => ({ ...license, activations: activationRecords.filter((a) => a.licenseId === license.id) })),
    payments,
    subscriptions,
    feedback: feedback.map(toFeedback),
  };
}

export type CustomerExport = Awaited<ReturnType<typeof exportCustomer>>;
