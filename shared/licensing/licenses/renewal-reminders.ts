import { type Config, type Deps, withoutNulls } from '../../platform/index.js';
import { type EntityItem, transact, writeItem } from '../../platform/data/index.js';
import { outboxEvent, portalLinkOf, queuedMailItems } from '../../messaging/index.js';
import { checkoutUrl, DEFAULT_RENEWAL_REMINDER_DAYS } from '../../catalog/index.js';
import { currentLicense } from './expiry-sweep.js';
import { settleDueItems } from './due-items.js';
import { toLicense, type LicenseItem } from './license-view.js';

export type ReminderDeps = Pick<Deps, 'data' | 'clock'> & { config: Pick<Config<'links'>, 'publicBaseUrl'> };
type ReminderItem = EntityItem<'licenseReminder'>;
type ProductItem = EntityItem<'product'>;

const DAY_MS = 24 * 3600 * 1000;
/** One run handles at most this many due reminder items per shard; the next run takes the rest. */
const SWEEP_BATCH_PER_SHARD = 200;
/** A sent mark outlives its expiry by this much, so a late duplicate reminder item still finds it. */
const SENT_MARK_RETENTION_SECONDS = 90 * 24 * 3600;
/** Subscription states in which Stripe goes on charging: the license renews, so no reminder. */
const RENEWING = new Set(['active', 'trialing', 'past_due']);

export type ReminderSweepResult = { reminded: number; skipped: number; cleared: number; retried: number };

/**
 * What a reminder item due now does, from the product's `days` and the expiry: the day to remind of (the nearest to
 * the expiry among those whose time has come: a license created or extended late, or a run missed, gets one
 * reminder, not several at once) and when to look again (the next day still ahead), if any.
 */
export function reminderStep(days: readonly number[], expiresAt: string, now: Date): { day?: number; nextAt?: string } {
  const left = Date.parse(expiresAt) - now.getTime();
  const due = days.filter((day) => day * DAY_MS >= left);
  const ahead = days.filter((day) => day * DAY_MS < left);
  return {
    ...(due.length > 0 && { day: Math.min(...due) }),
    ...(ahead.length > 0 && { nextAt: new Date(Date.parse(expiresAt) - Math.max(...ahead) * DAY_MS).toISOString() }),
  };
}

/**
 * Renewal reminders (DECISIONS §15), run by the expiry sweep's job: each shard's reminder items with `remindAt <= now`
 * (a key-range query, as for expiry). For each, in one transaction conditioned on the item still being there and the
 * license unchanged: the item moves to the product's next reminder day (or goes), and, when a day is due and the
 * license will not renew, the `license.expiring` event, the reminder e-mail and the day's sent mark (created only if
 * absent). Two runs at once, or twice, send each reminder once: one transaction wins the item, and the mark refuses
 * any other item of the same expiry.
 */
export async function sweepRenewalReminders(deps: ReminderDeps): Promise<ReminderSweepResult> {
  const now = deps.clock.now();
  const products = new Map<string, Promise<ProductItem | undefined>>();
  const productOf = (productId: string) => {
    if (!products.has(productId)) products.set(productId, deps.data.entities.product.get({ productId }).go().then(({ data }) => data ?? undefined));
    return products.get(productId)!;
  };
  const result: ReminderSweepResult = { reminded: 0, skipped: 0, cleared: 0, retried: 0 };
  const due = async (shard: string) =>
    (await deps.data.entities.licenseReminder.query.byDue({ shard }).lte({ remindAt: now.toISOString() }).go({ count: SWEEP_BATCH_PER_SHARD, pages: 'all' })).data;
  await settleDueItems(due, (item) => settle(deps, item, now, productOf), result);
  return result;
}

async function settle(
  deps: ReminderDeps,
  item: ReminderItem,
  now: Date,
  productOf: (productId: string) => Promise<ProductItem | undefined>,
): Promise<keyof ReminderSweepResult> {
  const key = { shard: item.shard, remindAt: item.remindAt, licenseId: item.licenseId };
  const license = await currentLicense(deps, item.licenseId);
  if (license === 'moving') return 'retried';
  const product = license === 'deleted' ? undefined : await productOf(license.productId);
  if (license === 'deleted' || !product || product.deletedAt || license.status !== 'active' || license.expiresAt !== item.expiresAt || item.expiresAt <= now.toISOString()) {
    // Stale (the license changed, and a change that re-armed it put an item of its own) or past: nothing to remind of.
    await writeItem(() => deps.data.entities.licenseReminder.delete(key).go());
    return 'cleared';
  }
  const step = reminderStep(product.renewalReminderDays ?? DEFAULT_RENEWAL_REMINDER_DAYS, item.expiresAt, now);
  const sentKey = step.day === undefined ? undefined : { shard: item.shard, licenseId: item.licenseId, expiresAt: item.expiresAt, day: step.day };
  const send = sentKey !== undefined && !(await renews(deps, license)) && !(await alreadySent(deps, sentKey));
  const baseUrl = deps.config.publicBaseUrl;
  const portalUrl = send && baseUrl ? await portalLinkOf(deps, license.tenantId, product.publicKey, baseUrl) : undefined;
  const outcome = await transact(deps.data, (tx) => ({
    license: tx.license.check({ licenseKey: license.licenseKey }).where(({ updatedAt }, { eq }) => eq(updatedAt, license.updatedAt)).commit(),
    reminder: tx.licenseReminder.delete(key).where(({ licenseId }, { exists }) => exists(licenseId)).commit(),
    next: step.nextAt !== undefined && tx.licenseReminder.put({ ...item, remindAt: step.nextAt }).commit(),
    sent:
      send &&
      tx.renewalReminderSent
        .create({ ...sentKey, tenantId: license.tenantId, sentAt: now.toISOString(), ttl: Math.floor(Date.parse(item.expiresAt) / 1000) + SENT_MARK_RETENTION_SECONDS })
        .commit(),
    notice: send && reminderNotice(tx, deps, { license, product, day: sentKey.day, portalUrl }, now),
  }));
  // Refused: another run took the item, or the license changed; the next run looks at what is left.
  if (!outcome.committed) return 'retried';
  return send ? 'reminded' : 'skipped';
}

/** The reminder's event and e-mail, as the transaction's items. */
function reminderNotice(
  tx: Parameters<Parameters<typeof transact>[1]>[0],
  deps: ReminderDeps,
  { license, product, day, portalUrl }: { license: LicenseItem; product: ProductItem; day: number; portalUrl?: string },
  now: Date,
) {
  const summary = { id: product.productId, name: product.name, slug: product.slug };
  const renewalUrl = license.planId && deps.config.publicBaseUrl ? checkoutUrl(deps.config.publicBaseUrl, license.planId, product.publicKey) : undefined;
  const daysLeft = Math.max(1, Math.ceil((Date.parse(license.expiresAt!) - now.getTime()) / DAY_MS));
  return [
    ...outboxEvent(tx, { tenantId: license.tenantId, type: 'license.expiring', data: { ...toLicense(license, summary, now), reminderDay: day, renewalUrl: renewalUrl ?? null }, now }),
    ...queuedMailItems(
      tx,
      {
        kind: 'renewalReminder',
        tenantId: license.tenantId,
        to: license.customerEmail,
        // Absent fields left out: the item is stored as it is.
        content: withoutNulls({ productName: product.name, licenseKey: license.licenseKey, expiresAt: license.expiresAt!, daysLeft, renewalUrl, portalUrl, customerName: license.customerName }),
      },
      now,
    ),
  ];
}

/** The license's subscription (if any) goes on renewing it: found among its customer's subscriptions (one key query). */
async function renews(deps: ReminderDeps, license: LicenseItem): Promise<boolean> {
  if (!license.customerId) return false;
  const { data } = await deps.data.entities.subscription.query.byCustomer({ customerId: license.customerId }).go({ pages: 'all' });
  const subscription = data.find((candidate) => candidate.licenseId === license.licenseId);
  return subscription !== undefined && RENEWING.has(subscription.status) && !subscription.cancelAtPeriodEnd;
}

async function alreadySent(deps: ReminderDeps, key: { shard: string; licenseId: string; expiresAt: string; day: number }): Promise<boolean> {
  const { data } = await deps.data.entities.renewalReminderSent.get(key).go({ consistent: true });
  return data !== null;
}
