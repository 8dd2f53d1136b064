import { forgetPersonalData } from '../../identity/index.js';
import { CUSTOMER_TEXT_FIELDS, type EntityItem, transact, writeItem } from '../../platform/data/index.js';
import { ConflictError, type Deps } from '../../platform/index.js';
import { outboxEvent } from '../../messaging/index.js';
import { indexFields } from '../../licensing/index.js';
import { type Customer, type CustomerItem, loadCustomer, toCustomer } from '../../customers/index.js';
import { feedbackOf } from './customer-feedback.js';
import { erasedCopy, erasedEmailOf, type ErasureSubject } from './erased-data.js';
import { eraseTrialClaims } from './trial-claim-erasure.js';

type ErasureDeps = Pick<Deps, 'data' | 'clock'>;

/** Rounds of "the customer changed between our read and our write" before answering 409. */
const WRITE_ROUNDS = 5;

/** The erased customer as `customer.erased` carries it: no personal data left, and when it was erased. */
export type ErasedCustomer = Customer & { erasedAt: string };

/**
 * Erases a customer's personal data (DECISIONS §16, §20) and keeps what the vendor's books and the customer's sites
 * need: licenses (same keys, still working), activations (without addresses or device names), payments,
 * subscriptions and trial claims (without the e-mail) stay, without personal data.
 *
 * Order matters for a retry: everything that is found by the customer's e-mail is erased first, while the customer
 * still holds the e-mail, and the customer last, in one transaction with its `customer.erased` event. A request cut
 * off half way leaves the customer as it was, and erasing again finishes the work (each step is idempotent).
 * Erasing an erased customer answers it again and changes nothing.
 */
export async function eraseCustomer(deps: ErasureDeps, tenantId: string, customerId: string): Promise<ErasedCustomer> {
  const customer = await loadCustomer(deps, tenantId, customerId);
  if (customer.erasedAt) return { ...toCustomer(customer), erasedAt: customer.erasedAt };
  const licenses = await licensesOf(deps, tenantId, customer.email);
  const subject: ErasureSubject = {
    email: customer.email,
    erasedEmail: erasedEmailOf(customerId),
    licenseIds: new Set(licenses.map((license) => license.licenseId)),
  };
  await Promise.all(licenses.map((license) => eraseLicense(deps, license, subject)));
  await eraseTrialClaims(deps, tenantId, subject);
  await erasePayments(deps, customerId);
  await eraseFeedback(deps, tenantId, subject);
  await eraseDeliveries(deps, tenantId, subject);
  return eraseCustomerItem(deps, customer);
}

async function licensesOf(deps: ErasureDeps, tenantId: string, email: string) {
  const { data } = await deps.data.entities.license.query.byEmail({ tenantId, customerEmail: email }).go({ pages: 'all' });
  return data;
}

/**
 * The license keeps its key, status, seats and activations; its e-mail becomes the erased address (so the erased
 * customer still lists it) and its name goes. The activations lose their IP addresses and a device's name (its
 * fingerprint and platform stay: they hold its seat); the license e-mail of a purchase (its `to` and name) is
 * deleted, sent or not.
 */
async function eraseLicense(deps: ErasureDeps, license: EntityItem<'license'>, subject: ErasureSubject): Promise<void> {
  const { license: licenses, activation, activeDomain, licenseMail } = deps.data.entities;
  const updatedAt = deps.clock.now().toISOString();
  // Conditioned on the e-mail: a license moved to someone else meanwhile is theirs now and keeps its data.
  await writeItem(() =>
    licenses
      .patch({ licenseKey: license.licenseKey })
      .set({ ...indexFields({ ...license, customerEmail: subject.erasedEmail }), updatedAt })
      .remove(['customerName'])
      .where(({ licenseId, customerEmail }, { eq }) => `${eq(licenseId, license.licenseId)} AND ${eq(customerEmail, subject.email)}`)
      .go(),
  );
  const { data: activations } = await activation.query.byLicense({ licenseId: license.licenseId }).go({ pages: 'all' });
  await Promise.all(
    activations.map(async (item) => {
      if (item.ipAddress !== '' || item.lastIpAddress !== undefined || item.name !== undefined) {
        await writeItem(() => activation.patch({ activationId: item.activationId }).set({ ipAddress: '' }).remove(['lastIpAddress', 'name']).go());
      }
      // An active site's last check lives on its domain item; gone already when the site was deactivated meanwhile.
      if (item.status === 'active') {
        await writeItem(() => activeDomain.patch({ licenseId: item.licenseId, domain: item.domain }).remove(['lastIpAddress']).go());
      }
    }),
  );
  await writeItem(() => licenseMail.delete({ licenseId: license.licenseId }).go());
}

/** A payment keeps its amount, status and product; the link to the provider's invoice (which shows name and address) goes. */
async function erasePayments(deps: ErasureDeps, customerId: string): Promise<void> {
  const { payment } = deps.data.entities;
  const { data } = await payment.query.byCustomer({ customerId }).go({ pages: 'all' });
  await Promise.all(
    data
      .filter((item) => item.invoicePdfUrl !== undefined)
      .map((item) => writeItem(() => payment.patch({ paymentId: item.paymentId }).remove(['invoicePdfUrl']).go())),
  );
}

/** Feedback the customer sent keeps its message and loses the contact e-mail and metadata. */
async function eraseFeedback(deps: ErasureDeps, tenantId: string, subject: ErasureSubject): Promise<void> {
  const { feedback } = deps.data.entities;
  const theirs = await feedbackOf(deps, tenantId, subject);
  await Promise.all(
    theirs.map(({ productId, createdAt, feedbackId }) =>
      writeItem(() => feedback.patch({ productId, createdAt, feedbackId }).remove(['email', 'metadata']).go()),
    ),
  );
}

/**
 * Webhook deliveries keep the body they were sent with (no TTL), so those that mention the customer are rewritten as
 * the records were (`erasedCopy`): one filtered query per webhook of the tenant. The outbox events they were made from
 * are rewritten too; an event no webhook took has no delivery to find it by and expires with its TTL (7 days).
 */
async function eraseDeliveries(deps: ErasureDeps, tenantId: string, subject: ErasureSubject): Promise<void> {
  const { webhook, delivery, outboxEvent } = deps.data.entities;
  const { data: webhooks } = await webhook.query.byTenant({ tenantId }).go({ pages: 'all', attributes: ['webhookId'] });
  const eventIds = new Set<string>();
  for (const { webhookId } of webhooks) {
    const { data } = await delivery.query
      .byWebhook({ webhookId })
      .where(({ payload }, { contains }) => contains(payload, subject.email))
      .go({ pages: 'all' });
    await Promise.all(
      data.map((item) => {
        eventIds.add(item.eventId);
        const payload = JSON.stringify(erasedCopy(JSON.parse(item.payload), subject));
        return writeItem(() => delivery.patch({ deliveryId: item.deliveryId }).set({ payload }).go());
      }),
    );
  }
  await Promise.all(
    [...eventIds].map(async (eventId) => {
      const { data: event } = await outboxEvent.get({ eventId }).go();
      if (!event) return;
      await writeItem(() => outboxEvent.patch({ eventId }).set({ data: erasedCopy(event.data, subject) }).go());
    }),
  );
}

/** The customer item and its e-mail hold, in one transaction with `customer.erased` and the deletion of the key that sealed its personal data in the audit log. */
async function eraseCustomerItem(deps: ErasureDeps, original: CustomerItem): Promise<ErasedCustomer> {
  const { tenantId, customerId } = original;
  let current = original;
  for (let round = 0; round < WRITE_ROUNDS; round++) {
    const now = deps.clock.now().toISOString();
    const erased: CustomerItem = {
      customerId,
      tenantId,
      email: erasedEmailOf(customerId),
      nameSearch: '',
      createdAt: current.createdAt,
      updatedAt: now,
      erasedAt: now,
    };
    const view: ErasedCustomer = { ...toCustomer(erased), erasedAt: now };
    const outcome = await transact(deps.data, (tx) => ({
      customer: tx.customer
        .patch({ customerId })
        .set({ email: erased.email, nameSearch: '', tenantId, createdAt: current.createdAt, updatedAt: now, erasedAt: now })
        .remove([...CUSTOMER_TEXT_FIELDS, 'metadata'])
        .where(({ updatedAt, email }, { eq }) => `${eq(updatedAt, current.updatedAt)} AND ${eq(email, current.email)}`)
        .commit(),
      oldEmail: tx.customerEmail
        .delete({ tenantId, email: current.email })
        .where(({ customerId: holder }, { eq }) => eq(holder, customerId))
        .commit(),
      newEmail: tx.customerEmail.create({ tenantId, email: erased.email, customerId }).commit(),
      event: outboxEvent(tx, { tenantId, type: 'customer.erased', data: view, now: new Date(now) }),
      personalData: forgetPersonalData(tx, tenantId, customerId),
    }));
    if (outcome.committed) return view;
    // Changed since it was read: erased by a concurrent request, it answers as erased; another e-mail now means what
    // was erased above was not all of it (409, and erasing again starts over); any other change is simply read again.
    current = await loadCustomer(deps, tenantId, customerId);
    if (current.erasedAt) return { ...toCustomer(current), erasedAt: current.erasedAt };
    if (current.email !== original.email) break;
  }
  throw new ConflictError('Customer was changed concurrently; retry');
}
