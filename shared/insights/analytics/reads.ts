import type { DailyMetric, EntityItem } from '../../platform/data/index.js';
import { BadRequestError, type Deps, type Page, pageOf } from '../../platform/index.js';
import { getProduct } from '../../catalog/index.js';
import { readDailyCounts, type DailyCount } from './daily-counts.js';
import { addDays, dayOf, dayStart, daysFrom } from './days.js';

type ReadDeps = Pick<Deps, 'data' | 'clock' | 'config'>;

/** A date range as the routes take it: days, both included; either end may be left open. */
export type DayRange = { from?: string; to?: string };
export type ListOptions = DayRange & { page: number; perPage: number };

/** The longest range one analytics read covers. */
export const MAX_RANGE_DAYS = 366;

/**
 * The days a list covers: at most back to the oldest day raw records are kept (older ones are gone or going,
 * while their counts stay), up to today. Records and totals are both cut to these days, so they agree.
 */
function listedDays(deps: ReadDeps, range: DayRange): { from: string; to: string } {
  const today = dayOf(deps.clock.now());
  const oldestKept = addDays(today, 1 - deps.config.analytics.retentionDays);
  const from = range.from && range.from > oldestKept ? range.from : oldestKept;
  const to = range.to && range.to < today ? range.to : today;
  if (range.from && range.to && range.from > range.to) throw new BadRequestError('from must not be after to');
  return { from, to };
}

const totalOf = (counts: DailyCount[], metric: DailyMetric, name?: string) =>
  counts.filter((c) => c.metric === metric && (name === undefined || c.name === name)).reduce((sum, c) => sum + c.count, 0);

/** Optional fields as the API shows them: `null`, never absent. */
const origin = (item: { licenseId?: string; licenseKey?: string; domain?: string }) => ({
  licenseId: item.licenseId ?? null,
  licenseKey: item.licenseKey ?? null,
  domain: item.domain ?? null,
});

export const toFeedback = (item: EntityItem<'feedback'>) => ({
  id: item.feedbackId,
  productId: item.productId,
  type: item.type,
  message: item.message,
  email: item.email ?? null,
  ...origin(item),
  metadata: (item.metadata as Record<string, unknown> | undefined) ?? null,
  createdAt: item.createdAt,
});

export const toDeactivationReason = (item: EntityItem<'deactivationReason'>) => ({
  id: item.reasonId,
  productId: item.productId,
  reason: item.reason,
  details: item.details ?? null,
  ...origin(item),
  createdAt: item.createdAt,
});

export const toUsageEvent = (item: EntityItem<'usageEvent'>) => ({
  id: item.eventId,
  productId: item.productId,
  event: item.event,
  properties: (item.properties as Record<string, unknown> | undefined) ?? null,
  ...origin(item),
  createdAt: item.createdAt,
});

/**
 * A product's feedback, newest first: one Query of the product's partition between the range's first instant and
 * the next day's, reading up to the end of the page. The total comes from the daily counts (one Query).
 */
export async function listFeedback(
  deps: ReadDeps,
  tenantId: string,
  productId: string,
  options: ListOptions & { type?: EntityItem<'feedback'>['type'] },
): Promise<Page<ReturnType<typeof toFeedback>>> {
  await getProduct(deps, tenantId, productId);
  const { from, to } = listedDays(deps, options);
  const counts = await readDailyCounts(deps, productId, from, to);
  const total = totalOf(counts, 'feedback', options.type);
  const skip = (options.page - 1) * options.perPage;
  if (skip >= total) return pageOf([], options.page, options.perPage, total);
  const wanted = skip + options.perPage;
  const { data } = await deps.data.entities.feedback.query
    .byProduct({ productId })
    .between({ createdAt: dayStart(from) }, { createdAt: dayStart(addDays(to, 1)) })
    .where(({ type, createdAt }, { eq, lt }) => [lt(createdAt, dayStart(addDays(to, 1))), options.type ? eq(type, options.type) : ''].filter(Boolean).join(' AND '))
    .go({ order: 'desc', count: wanted, pages: 'all' });
  return pageOf(data.slice(skip, wanted).map(toFeedback), options.page, options.perPage, total);
}

/** A product's deactivation reasons, newest first, read as feedback is. */
export async function listDeactivationReasons(
  deps: ReadDeps,
  tenantId: string,
  productId: string,
  options: ListOptions,
): Promise<Page<ReturnType<typeof toDeactivationReason>>> {
  await getProduct(deps, tenantId, productId);
  const { from, to } = listedDays(deps, options);
  const total = totalOf(await readDailyCounts(deps, productId, from, to), 'reason');
  const skip = (options.page - 1) * options.perPage;
  if (skip >= total) return pageOf([], options.page, options.perPage, total);
  const wanted = skip + options.perPage;
  const { data } = await deps.data.entities.deactivationReason.query
    .byProduct({ productId })
    .between({ createdAt: dayStart(from) }, { createdAt: dayStart(addDays(to, 1)) })
    .where(({ createdAt }, { lt }) => lt(createdAt, dayStart(addDays(to, 1))))
    .go({ order: 'desc', count: wanted, pages: 'all' });
  return pageOf(data.slice(skip, wanted).map(toDeactivationReason), options.page, options.perPage, total);
}

/**
 * A product's usage events, newest first. Events live in one partition per day; the daily counts say how many
 * (of the named event) each day holds, so whole days before the page are skipped without a read, and only the
 * days the page draws from are queried.
 */
export async function listUsageEvents(
  deps: ReadDeps,
  tenantId: string,
  productId: string,
  options: ListOptions & { event?: string },
): Promise<Page<ReturnType<typeof toUsageEvent>>> {
  await getProduct(deps, tenantId, productId);
  const { from, to } = listedDays(deps, options);
  const counts = (await readDailyCounts(deps, productId, from, to)).filter((c) => c.metric === 'event' && (options.event === undefined || c.name === options.event));
  const perDay = new Map<string, number>();
  for (const c of counts) perDay.set(c.day, (perDay.get(c.day) ?? 0) + c.count);
  const total = [...perDay.values()].reduce((sum, n) => sum + n, 0);

  let skip = (options.page - 1) * options.perPage;
  const items: EntityItem<'usageEvent'>[] = [];
  for (const day of [...perDay.keys()].sort().reverse()) {
    if (items.length === options.perPage) break;
    const inDay = perDay.get(day)!;
    if (skip >= inDay) {
      skip -= inDay;
      continue;
    }
    const wanted = skip + options.perPage - items.length;
    const query = deps.data.entities.usageEvent.query.byProductDay({ productId, day });
    const { data } = await (options.event === undefined ? query : query.where(({ event }, { eq }) => eq(event, options.event!))).go({ order: 'desc', count: wanted, pages: 'all' });
    items.push(...data.slice(skip, wanted));
    skip = 0;
  }
  return pageOf(items.map(toUsageEvent), options.page, options.perPage, total);
}

type Tally = Record<string, number>;
export type AnalyticsDay = { date: string; activeInstalls: number; versions: Tally; events: Tally; feedback: Tally; deactivationReasons: Tally };

/** Default range of the summary: the last 30 days, today included. */
const DEFAULT_SUMMARY_DAYS = 30;
const TALLY_OF: Record<Exclude<DailyMetric, 'installs'>, keyof Omit<AnalyticsDay, 'date' | 'activeInstalls'>> = {
  version: 'versions',
  event: 'events',
  feedback: 'feedback',
  reason: 'deactivationReasons',
};

/**
 * A product's analytics over a range of days, from its daily counts alone (one Query): per day the distinct active
 * installs (activations seen by a validate or check that day), installs by product version, events by name,
 * feedback by type and deactivation reasons; and the totals of the range. Every day of the range is listed.
 */
export async function productAnalytics(deps: ReadDeps, tenantId: string, productId: string, range: DayRange) {
  await getProduct(deps, tenantId, productId);
  const to = range.to ?? dayOf(deps.clock.now());
  const from = range.from ?? addDays(to, 1 - DEFAULT_SUMMARY_DAYS);
  if (from > to) throw new BadRequestError('from must not be after to');
  if (daysFrom(from, to).length > MAX_RANGE_DAYS) throw new BadRequestError(`The range may span at most ${MAX_RANGE_DAYS} days`);

  const days = new Map(daysFrom(from, to).map((date) => [date, { date, activeInstalls: 0, versions: {}, events: {}, feedback: {}, deactivationReasons: {} } as AnalyticsDay]));
  const totals = { events: {} as Tally, feedback: {} as Tally, deactivationReasons: {} as Tally };
  for (const { day, metric, name, count } of await readDailyCounts(deps, productId, from, to)) {
    const entry = days.get(day)!;
    if (metric === 'installs') {
      entry.activeInstalls += count;
      continue;
    }
    const tally = TALLY_OF[metric];
    entry[tally][name] = (entry[tally][name] ?? 0) + count;
    if (tally !== 'versions') totals[tally][name] = (totals[tally][name] ?? 0) + count;
  }
  return { from, to, days: [...days.values()], totals };
}
