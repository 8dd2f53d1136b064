import { BadRequestError, type Deps, newId, NotFoundError, ServiceUnavailableError, withoutNulls } from '../../platform/index.js';
import { toActivationListItem, type ActivationItem } from '../activations/activation-view.js';
import { counterNames, counterUpdates, transact, type TransactionEntities } from '../../platform/data/index.js';
import { outboxEvent } from '../../messaging/index.js';
import { assertUsable } from './license-state.js';
import type { LicenseItem } from '../licenses/license-view.js';
import { seatLimit } from '../licenses/license-rules.js';
import { readLicense, resolveLicense, type LicenseClaim, type ResolvedLicense } from './license-lookup.js';
import { LICENSE_MESSAGES } from './messages.js';
import type { SeatHolder } from './seat-holder.js';
import type { ProductRef } from './product-catalog.js';
import { DEFAULT_STAGING_ACTIVATION_LIMIT, reachMilestone } from '../../catalog/index.js';
import { DEFAULT_STAGING_RULES, type Environment } from './staging.js';
import type { LicenseContext } from './validate.js';

/** `features`: the license's (DECISIONS §23), as read for this activation. */
export type ActivationResult = { activationId: string; activatedAt: string; created: boolean; environment: Environment; features: string[] };

/** Rounds of "the license changed between our read and our write": each re-reads it and decides again. */
const MAX_ROUNDS = 5;

/**
 * Activates a license on a (normalized) domain or a machine (shared/licensing/operations/seat-holder.ts): both take a seat alike. One transaction creates the activation and the
 * domain's uniqueness item, takes a seat with a condition on the license item (active, not expired,
 * a seat free), moves the counters and records `license.activated`. A staging or local site (by the
 * product's patterns, shared/licensing/operations/staging.ts) takes no seat: the same transaction counts it in the
 * license's `stagingCount` instead, on the condition that the license holds fewer than the product's limit.
 * An already active domain gets its existing activation back; a deactivated one gets a new activation.
 * `resolved`: the license as the caller already started reading it (beside its rate-limit writes), for the
 * first round; later rounds read it again.
 */
export async function activateLicense(
  deps: Pick<Deps, 'data' | 'clock'>,
  context: LicenseContext,
  input: LicenseClaim & { holder: SeatHolder; ipAddress: string; version?: string },
  resolved: Promise<ResolvedLicense> = resolveLicense(deps, context.catalog, input),
): Promise<ActivationResult> {
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const { license, product } = await (round === 0 ? resolved : resolveLicense(deps, context.catalog, input));
    const now = deps.clock.now();
    assertUsable(license, now);
    // A floating license's seats are borrowed by leases (shared/licensing/leases/), never held by activations.
    if (license.floating) throw new BadRequestError(LICENSE_MESSAGES.floating);
    const { holder } = input;
    const staging = product.staging ?? DEFAULT_STAGING_RULES;
    // A machine is never a staging site: the patterns are host names.
    const environment = holder.kind === 'domain' ? staging.environmentOf(holder.domain) : 'production';
    const activation: ActivationItem = {
      activationId: newId('act'),
      licenseId: license.licenseId,
      tenantId: license.tenantId,
      productId: license.productId,
      domain: holder.holdKey,
      ...(holder.kind === 'machine' ? withoutNulls({ machine: holder.machine, name: holder.name, platform: holder.platform }) : {}),
      ipAddress: input.ipAddress,
      status: 'active',
      environment,
      activatedAt: now.toISOString(),
    };
    const outcome = await transact(deps.data, (tx) => activationWrites(tx, license, product, activation, now, staging.limit));
    const features = license.features ?? [];
    if (outcome.committed) {
      // The product's first site or machine, which its dashboard page waits for (DECISIONS §22).
      const site = holder.kind === 'domain' ? holder.domain : (holder.name ?? holder.machine);
      await reachMilestone(deps, { productId: license.productId, tenantId: license.tenantId, milestone: 'firstActivation', at: activation.activatedAt, site, licenseId: license.licenseId });
      return { activationId: activation.activationId, activatedAt: activation.activatedAt, created: true, environment, features };
    }

    if (outcome.refused('domain')) {
      const existing =
        outcome.oldItem<{ activationId: string; activatedAt: string; environment?: Environment }>('domain') ??
        (await deps.data.entities.activeDomain.get({ licenseId: license.licenseId, domain: holder.holdKey }).go({ consistent: true })).data;
      if (existing) {
        await context.activity.domainSeen(license, holder.holdKey, input.ipAddress, input.version);
        // Its environment is the one it was made with, not what the patterns say now (absent: made before staging sites existed).
        return { activationId: existing.activationId, activatedAt: existing.activatedAt, created: false, environment: existing.environment ?? 'production', features };
      }
      continue; // deactivated between the two: activate afresh
    }
    if (outcome.refused('seat') || outcome.refused('stagingSlot')) {
      // The license item decides: gone (regenerated or deleted), no longer usable, full, or merely changed.
      const current = await readLicense(deps, input.licenseKey);
      if (!current || current.licenseId !== license.licenseId) throw new NotFoundError(LICENSE_MESSAGES.notFound);
      assertUsable(current, deps.clock.now());
      if (environment === 'production' && current.activatedCount >= seatLimit(current)) throw new BadRequestError(LICENSE_MESSAGES.seatLimit);
      if (environment === 'staging' && (current.stagingCount ?? 0) >= staging.limit) throw new BadRequestError(LICENSE_MESSAGES.stagingLimit);
      continue;
    }
    throw outcome.unexpected();
  }
  throw new ServiceUnavailableError();
}

/**
 * The items of the activation transaction, by slot (also what bench/edge.ts sends raw as activate's floor).
 * A production site takes a seat (`seat`); a staging site takes one of the license's `stagingLimit` staging
 * places instead (`stagingSlot`). Either way the condition holds the rule, never a read before the write.
 */
export function activationWrites(
  tx: TransactionEntities,
  license: LicenseItem,
  product: ProductRef,
  activation: ActivationItem,
  now: Date,
  stagingLimit = DEFAULT_STAGING_ACTIVATION_LIMIT,
) {
  const nowIso = now.toISOString();
  const event = toActivationListItem(activation, { license, product });
  const staging = activation.environment === 'staging';
  return {
    activation: tx.activation.create(activation).commit(),
    // Only if the domain holds no active activation of this license; refused, it hands back the one that does.
    domain: tx.activeDomain
      .create({
        licenseId: license.licenseId,
        domain: activation.domain,
        activationId: activation.activationId,
        activatedAt: nowIso,
        environment: activation.environment,
      })
      .commit({ response: 'all_old' }),
    // The seat: the license is still this one, active, unexpired and not full (nor as full as a pending downgrade's
    // seats: DECISIONS §20).
    seat:
      !staging &&
      tx.license
        .patch({ licenseKey: license.licenseKey })
        .add({ activatedCount: 1 })
        .set({ updatedAt: nowIso })
        .where(
          ({ licenseId, status, activatedCount, seats, pendingSeats, expiresAt }, { eq, name, notExists, gt }) =>
            `${eq(licenseId, license.licenseId)} AND ${eq(status, 'active')} AND ${name(activatedCount)} < ${name(seats)} AND ` +
            `(${notExists(pendingSeats)} OR ${name(activatedCount)} < ${name(pendingSeats)}) AND (${notExists(expiresAt)} OR ${gt(expiresAt, nowIso)})`,
        )
        .commit(),
    // A staging site: the license is still this one, active, unexpired, and holds fewer staging sites than the limit.
    stagingSlot:
      staging &&
      tx.license
        .patch({ licenseKey: license.licenseKey })
        .add({ stagingCount: 1 })
        .set({ updatedAt: nowIso })
        .where(
          ({ licenseId, status, stagingCount, expiresAt }, { eq, notExists, gt, lt }) =>
            `${eq(licenseId, license.licenseId)} AND ${eq(status, 'active')} AND (${notExists(stagingCount)} OR ${lt(stagingCount, stagingLimit)}) AND (${notExists(expiresAt)} OR ${gt(expiresAt, nowIso)})`,
        )
        .commit(),
    counters: counterUpdates(tx.counter, license.tenantId, counterNames.activations('active'), 1),
    event: outboxEvent(tx, { tenantId: license.tenantId, type: 'license.activated', data: event, now }),
  };
}
