import { type DailyMetric, type TransactionEntities, writeItem } from '../../platform/data/index.js';
import type { Deps } from '../../platform/index.js';
import { addDays } from './days.js';

export type DailyCount = { day: string; metric: DailyMetric; name: string; count: number };

/** Adds `by` to a product's count of `metric`/`name` on `day`, creating it at 0 first: one UpdateItem, no read. */
export async function bumpDailyCount(deps: Pick<Deps, 'data'>, count: { productId: string; day: string; metric: DailyMetric; name: string }, by = 1) {
  await writeItem(() => deps.data.entities.productDaily.update(count).add({ count: by }).go({ response: 'none' }));
}

/** The same bump as a transaction item, for writes that commit with what they count. */
export function dailyCountItem(
  productDaily: TransactionEntities['productDaily'],
  count: { productId: string; day: string; metric: DailyMetric; name: string },
) {
  return productDaily.update(count).add({ count: 1 }).commit();
}

/**
 * Every count of a product from `from` to `to` (days, both included): one Query of the product's partition,
 * whose sort key starts with the day. The upper bound is the next day's start, whose own items are dropped.
 */
export async function readDailyCounts(deps: Pick<Deps, 'data'>, productId: string, from: string, to: string): Promise<DailyCount[]> {
  const { data } = await deps.data.entities.productDaily.query
    .byProduct({ productId })
    .between({ day: from }, { day: addDays(to, 1) })
    .go({ pages: 'all' });
  return data.filter((item) => item.day <= to).map(({ day, metric, name, count }) => ({ day, metric, name, count }));
}
