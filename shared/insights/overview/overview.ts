import { addDays, dayOf, daysFrom } from '../analytics/days.js';
import { MAX_RANGE_DAYS } from '../analytics/reads.js';
import { ALL_PRODUCTS, GAUGE_DAY, type OverviewMetric } from '../../platform/data/index.js';
import { BadRequestError, type Deps, fromMinorUnits } from '../../platform/index.js';
import { loadProduct } from '../../catalog/index.js';
import { estimate, mergeSketches } from './hyperloglog.js';
import { readSketches } from './install-sketches.js';

type OverviewDeps = Pick<Deps, 'data' | 'clock'>;
type Count = { day: string; metric: OverviewMetric; name: string; count: number };

/** Default range: the last 30 days, today included. */
const DEFAULT_DAYS = 30;
/** Active installs: the distinct sites seen in the 7 days that end the range. */
export const ACTIVE_DAYS = 7;
/** The main currency of an account that has sold nothing yet. */
const DEFAULT_CURRENCY = 'USD';

/** Every count of a scope from `from` to `to` (days, both included): one Query whose sort key starts with the day. */
async function readCounts(deps: OverviewDeps, tenantId: string, scope: string, from: string, to: string): Promise<Count[]> {
  const { data } = await deps.data.entities.overviewCount.query
    .byScope({ tenantId, scope })
    .between({ day: from }, { day: addDays(to, 1) })
    .go({ pages: 'all' });
  return data.filter((item) => item.day <= to).map(({ day, metric, name, count }) => ({ day, metric, name, count }));
}

/** A scope's gauges (active subscriptions, recurring revenue, lifetime revenue): one Query of a few items. */
async function readGauges(deps: OverviewDeps, tenantId: string, scope: string): Promise<Count[]> {
  const { data } = await deps.data.entities.overviewCount.query.byScope({ tenantId, scope, day: GAUGE_DAY }).go({ pages: 'all' });
  return data.map(({ day, metric, name, count }) => ({ day, metric, name, count }));
}

const sumOf = (counts: Count[], metric: OverviewMetric, name?: string) =>
  counts.filter((c) => c.metric === metric && (name === undefined || c.name === name)).reduce((sum, c) => sum + c.count, 0);

/**
 * The account's main currency: the one of its largest lifetime gross revenue (all products), else of its largest
 * recurring revenue, else USD. Ties go to the first in alphabetical order, so the answer is stable.
 */
export function mainCurrency(accountGauges: Count[]): string {
  for (const metric of ['lifetimeRevenue', 'arr'] as const) {
    const ranked = accountGauges.filter((g) => g.metric === metric && g.count > 0).sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
    if (ranked[0]) return ranked[0].name;
  }
  return DEFAULT_CURRENCY;
}

/**
 * Installs by a reported version over the active days: each version's largest count of distinct sites on one day
 * (a site checks at least daily, so a day's count is the sites running it; summing days would count a site seven
 * times), most first.
 */
function installsBy(counts: Count[], metric: 'version' | 'php' | 'wp') {
  const largest = new Map<string, number>();
  for (const c of counts) if (c.metric === metric) largest.set(c.name, Math.max(largest.get(c.name) ?? 0, c.count));
  return [...largest].map(([version, count]) => ({ version, count })).sort((a, b) => b.count - a.count || a.version.localeCompare(b.version, undefined, { numeric: true }));
}

/**
 * Gross revenue by day in each currency sold in over the range, in major units: the main currency first (there even
 * with no sale), the others by code. Each currency is its own series: amounts in different currencies are never added.
 */
function revenueIn(inRange: Count[], days: string[], main: string) {
  const byCurrency = new Map<string, Map<string, number>>([[main, new Map()]]);
  for (const c of inRange) {
    if (c.metric !== 'revenue' || c.count === 0) continue;
    const byDay = byCurrency.get(c.name) ?? byCurrency.set(c.name, new Map()).get(c.name)!;
    byDay.set(c.day, (byDay.get(c.day) ?? 0) + c.count);
  }
  const currencies = [main, ...[...byCurrency.keys()].filter((code) => code !== main).sort()];
  return currencies.map((code) => {
    const byDay = byCurrency.get(code)!;
    const total = [...byDay.values()].reduce((sum, minor) => sum + minor, 0);
    return { currency: code, total: fromMinorUnits(total, code), byDay: days.map((date) => ({ date, amount: fromMinorUnits(byDay.get(date) ?? 0, code) })) };
  });
}

/** The range asked for, checked: days, both included, default the last 30, at most MAX_RANGE_DAYS. */
function rangeOf(deps: OverviewDeps, range: { from?: string; to?: string }) {
  const to = range.to ?? dayOf(deps.clock.now());
  const from = range.from ?? addDays(to, 1 - DEFAULT_DAYS);
  if (from > to) throw new BadRequestError('from must not be after to');
  if (daysFrom(from, to).length > MAX_RANGE_DAYS) throw new BadRequestError(`The range may span at most ${MAX_RANGE_DAYS} days`);
  return { from, to };
}

/**
 * `GET /api/analytics/overview` (DECISIONS §19): a tenant's business at a glance, for one product or all, from its
 * aggregates alone, whatever the number of licenses and sites: one Query of the range's counts (with the 7 days of
 * installs before its end), one of the sketches of those 7 days, and one or two of the gauges (docs/data-model.md).
 * Money is in the account's main currency (payments in another are left out), in major units.
 */
export async function readOverview(deps: OverviewDeps, tenantId: string, query: { from?: string; to?: string; productId?: string }) {
  const { from, to } = rangeOf(deps, query);
  if (query.productId) await loadProduct(deps, tenantId, query.productId);
  const scope = query.productId ?? ALL_PRODUCTS;
  const activeFrom = addDays(to, 1 - ACTIVE_DAYS);
  const [counts, sketches, gauges, accountGauges] = await Promise.all([
    readCounts(deps, tenantId, scope, from < activeFrom ? from : activeFrom, to),
    readSketches(deps, tenantId, scope, activeFrom, to),
    readGauges(deps, tenantId, scope),
    scope === ALL_PRODUCTS ? undefined : readGauges(deps, tenantId, ALL_PRODUCTS),
  ]);
  const currency = mainCurrency(accountGauges ?? gauges);
  const money = (minor: number) => fromMinorUnits(minor, currency);
  const inRange = counts.filter((c) => c.day >= from);
  const active = counts.filter((c) => c.day >= activeFrom);
  const days = daysFrom(from, to);
  const sitesByDay = new Map(days.map((date) => [date, 0]));
  for (const c of inRange) if (c.metric === 'sightings') sitesByDay.set(c.day, sitesByDay.get(c.day)! + c.count);
  const revenueByCurrency = revenueIn(inRange, days, currency);
  return {
    currency,
    revenue: { total: revenueByCurrency[0]!.total, byDay: revenueByCurrency[0]!.byDay },
    revenueByCurrency,
    refunds: { total: money(sumOf(inRange, 'refunds', currency)), count: sumOf(inRange, 'refundCount', currency) },
    mrr: money(Math.round(sumOf(gauges, 'arr', currency) / 12)),
    activeSubscriptions: sumOf(gauges, 'activeSubscriptions'),
    newLicenses: sumOf(inRange, 'newLicenses'),
    churnedSubscriptions: sumOf(inRange, 'churned'),
    activeInstalls: sketches.length === 0 ? 0 : estimate(mergeSketches(sketches)),
    installsByDay: [...sitesByDay].map(([date, count]) => ({ date, count })),
    installsByVersion: installsBy(active, 'version'),
    installsByPhp: installsBy(active, 'php'),
    installsByWp: installsBy(active, 'wp'),
  };
}

export type Overview = Awaited<ReturnType<typeof readOverview>>;
