import type { ActivationItem } from '../activations/activation-view.js';
import { holdOf, readDomainHolds, type DomainHold } from '../activations/last-check.js';
import { type CustomerLink, customerLinkItems, normalizeEmail, resolveCustomerLink } from '../../customers/index.js';
import { transact } from '../../platform/data/index.js';
import { BadRequestError, ConflictError, NotFoundError, withoutNulls } from '../../platform/index.js';
import { outboxEvent, productPortalLinkOf, queuedMailItems } from '../../messaging/index.js';
import { endLeases } from '../leases/leases.js';
import { indexFields } from './index-fields.js';
import { activationsOf, activationsRead, deactivationItems, FIRST_CHUNK, LATER_CHUNK } from './license-activations.js';
import { activationsDeactivated, stagingCountIs } from './license-counters.js';
import { toLicense, type License, type LicenseItem, type ProductSummary } from './license-view.js';
import { LICENSE_NOT_FOUND, loadLicense, productSummary, type LicenseDeps } from './load-license.js';

export const TRANSFER_MESSAGES = {
  revoked: 'A revoked license cannot be transferred',
  sameOwner: 'The license already belongs to this e-mail',
} as const;

export type TransferInput = {
  email: string;
  /** The new owner's name on the license (and on their customer, when the transfer creates it); absent: none. */
  name?: string;
  keepActivations?: boolean;
  /** The portal's check: the license must carry this e-mail now, else it is not found (404). */
  currentOwner?: string;
};

/** Consecutive cancelled transactions (concurrent activations, deactivations or edits) before giving up. */
const MAX_FAILURES = 5;

/**
 * Moves a license to the tenant's customer with `email` (created, with `customer.created`, when new), keeping its key
 * (DECISIONS §15). The license's e-mail, customer and name change in one transaction with the new customer's link,
 * `license.transferred` and the new owner's e-mail; without `keepActivations` every active activation read is
 * deactivated, the first ones in that transaction (conditioned on the counts read, so none slipped in unseen) and the
 * rest in further ones of the same call, each giving back exactly the seats it frees, and every live lease of a floating
 * license ends (DECISIONS §20). A revoked license is 400.
 */
export async function transferLicense(deps: LicenseDeps, tenantId: string, licenseId: string, input: TransferInput, baseUrl: string): Promise<License> {
  const email = normalizeEmail(input.email);
  let portalUrl: Promise<string | undefined> | undefined;
  for (let failures = 0; failures < MAX_FAILURES; failures++) {
    const current = await loadLicense(deps, tenantId, licenseId);
    if (input.currentOwner !== undefined && current.customerEmail !== normalizeEmail(input.currentOwner)) throw new NotFoundError(LICENSE_NOT_FOUND);
    if (current.status === 'revoked') throw new BadRequestError(TRANSFER_MESSAGES.revoked);
    if (current.customerEmail === email) throw new BadRequestError(TRANSFER_MESSAGES.sameOwner);
    const product = await productSummary(deps, current.productId);
    // The new owner's e-mail names the vendor's portal when it is on (DECISIONS §25); read once, whatever the rounds.
    portalUrl ??= productPortalLinkOf(deps, tenantId, current.productId, baseUrl);
    const active = input.keepActivations ? [] : (await activationsRead(deps, current)).filter((activation) => activation.status === 'active');
    const first = active.slice(0, FIRST_CHUNK);
    const holds = first.length > 0 ? await readDomainHolds(deps, first, { consistent: true }) : new Map<string, DomainHold>();
    const now = deps.clock.now();
    const link = await resolveCustomerLink(deps, tenantId, email, input.name, now);
    const next: LicenseItem = {
      ...current,
      customerEmail: email,
      customerId: link.customerId,
      customerName: input.name,
      ...(!input.keepActivations && { activatedCount: 0, stagingCount: 0 }),
      updatedAt: now.toISOString(),
    };
    const outcome = await transferStep(deps, { current, next, product, link, first, holds, keepActivations: Boolean(input.keepActivations), portalUrl: await portalUrl, now });
    if (!outcome.committed) continue;
    await deactivateRest(deps, next, active.slice(FIRST_CHUNK));
    if (!input.keepActivations) await endLeases(deps, licenseId);
    return toLicense(await loadLicense(deps, tenantId, licenseId), product, now);
  }
  throw new ConflictError('License was changed concurrently; retry');
}

type Step = {
  current: LicenseItem;
  next: LicenseItem;
  product: ProductSummary;
  portalUrl?: string;
  link: CustomerLink;
  first: ActivationItem[];
  holds: Map<string, DomainHold>;
  keepActivations: boolean;
  now: Date;
};

function transferStep(deps: LicenseDeps, { current, next, product, link, first, holds, keepActivations, portalUrl, now }: Step) {
  const at = now.toISOString();
  const { licenseKey, licenseId, tenantId } = current;
  const staging = first.filter((activation) => activation.environment === 'staging').length;
  const clearName = next.customerName === undefined && current.customerName !== undefined;
  return transact(deps.data, (tx) => {
    const patch = tx.license
      .patch({ licenseKey })
      .set({ ...indexFields(next), customerId: next.customerId!, updatedAt: at, ...(next.customerName !== undefined && { customerName: next.customerName }) })
      .subtract({ activatedCount: first.length - staging, ...(staging > 0 ? { stagingCount: staging } : {}) });
    return {
      license: (clearName ? patch.remove(['customerName']) : patch)
        // As read: the owner, the status and (when deactivating) the counts, so no activation slipped in unseen.
        .where(({ licenseId: id, status, customerEmail, activatedCount, stagingCount }, op) =>
          [
            op.eq(id, licenseId),
            op.eq(status, current.status),
            op.eq(customerEmail, current.customerEmail),
            ...(keepActivations ? [] : [op.eq(activatedCount, current.activatedCount), stagingCountIs(stagingCount, op, current.stagingCount)]),
          ].join(' AND '),
        )
        .commit(),
      customer: customerLinkItems(tx, link, now),
      event: outboxEvent(tx, {
        tenantId,
        type: 'license.transferred',
        data: { ...toLicense(next, product, now), previousCustomerId: current.customerId ?? null, previousCustomerEmail: current.customerEmail, activationsKept: keepActivations },
        now,
      }),
      mail: queuedMailItems(
        tx,
        {
          kind: 'licenseTransferred',
          tenantId,
          to: next.customerEmail,
          // Absent fields left out: the item is stored as it is.
          content: withoutNulls({ productName: product.name, licenseKey, seats: next.seats, expiresAt: next.expiresAt, portalUrl, customerName: next.customerName }),
        },
        now,
      ),
      activationCounters: first.length > 0 && activationsDeactivated(tx.counter, tenantId, first.length),
      activations: first.flatMap((activation) => deactivationItems(tx, activation, at, holdOf(holds, activation))),
    };
  });
}

/**
 * The activations read before the transfer that did not fit in its transaction, deactivated in chunks: each moves
 * the license's counts by what it frees, conditioned on the license still being the new owner's (an activation the
 * new owner made since is not among them).
 */
async function deactivateRest(deps: LicenseDeps, license: LicenseItem, rest: ActivationItem[]): Promise<void> {
  const pending = new Set(rest.map((activation) => activation.activationId));
  for (let failures = 0; pending.size > 0 && failures < MAX_FAILURES; ) {
    // Those still active (one the new owner deactivated meanwhile is done).
    const still = (await activationsOf(deps, license.licenseId)).filter((activation) => pending.has(activation.activationId) && activation.status === 'active');
    const chunk = still.slice(0, LATER_CHUNK);
    if (chunk.length === 0) return;
    const holds = await readDomainHolds(deps, chunk, { consistent: true });
    const at = deps.clock.now().toISOString();
    const staging = chunk.filter((activation) => activation.environment === 'staging').length;
    const outcome = await transact(deps.data, (tx) => ({
      license: tx.license
        .patch({ licenseKey: license.licenseKey })
        .set({ updatedAt: at })
        .subtract({ activatedCount: chunk.length - staging, ...(staging > 0 ? { stagingCount: staging } : {}) })
        .where(({ licenseId, customerEmail }, { eq }) => `${eq(licenseId, license.licenseId)} AND ${eq(customerEmail, license.customerEmail)}`)
        .commit(),
      activationCounters: activationsDeactivated(tx.counter, license.tenantId, chunk.length),
      activations: chunk.flatMap((activation) => deactivationItems(tx, activation, at, holdOf(holds, activation))),
    }));
    if (outcome.committed) for (const activation of chunk) pending.delete(activation.activationId);
    failures = outcome.committed ? 0 : failures + 1;
  }
  if (pending.size > 0) throw new ConflictError('License was changed concurrently; retry');
}
