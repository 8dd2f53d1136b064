import { PutCommand, ScanCommand, type DynamoDBDocumentClient, type ScanCommandOutput } from '@aws-sdk/lib-dynamodb';
import { ALL_PRODUCTS, createDataService, SERVICE_NAME, writeItem } from '../../platform/data/index.js';
import { licenseCreatedChanges, paymentChanges, refundChanges, subscriptionChanges, type OverviewChange } from './counts.js';

/** The marker of a backfill done: a second run would count everything twice, so it refuses. */
const MARKER_KEY = { pk: `$${SERVICE_NAME}#overviewBackfill`, sk: 'done' };
/** Counts written at once. */
const WRITE_CONCURRENCY = 8;

export type OverviewBackfill = { payments: number; subscriptions: number; licenses: number; counts: number };
export class AlreadyBackfilledError extends Error {}

type Scanned = Record<string, any>;
type Counted = { tenantId: string; productId?: string; change: OverviewChange };

/**
 * What a record created before `before` (the upgrade) adds to the overview, as the live writes would have added it:
 * a payment its revenue (and, refunded, its refund, on the payment's own day: the refund's is not recorded), a
 * license its creation, a subscription its start, and, ended before the upgrade, its churn (one ended since was
 * taken off by the live write).
 */
function changesOf(item: Scanned, before: string): OverviewChange[] {
  switch (item.__edb_e__) {
    case 'payment':
      return [...paymentChanges(item as never), ...(item.status === 'refunded' ? refundChanges(item as never, new Date(item.createdAt)) : [])];
    case 'license':
      return licenseCreatedChanges(item as never);
    case 'subscription': {
      const endedBefore = item.status === 'canceled' && (item.canceledAt ?? item.updatedAt) < before;
      return [...subscriptionChanges(item, 1, new Date(item.createdAt)), ...(endedBefore ? subscriptionChanges(item, -1, new Date(item.canceledAt ?? item.updatedAt)) : [])];
    }
    default:
      return [];
  }
}

/**
 * Builds the overview's counts (shared/insights/overview/counts.ts) from the payments, subscriptions and licenses created
 * before `before`, for a stack upgraded to the overview (docs/deploy.md, Upgrading): counts are added (`ADD`) to those
 * the live writes made since, each once per product and once in the rollup. Install sightings have no past to build
 * from: they start with the upgrade. A one-off, so it scans; it refuses to run twice (a marker item).
 */
export async function backfillOverview(client: DynamoDBDocumentClient, tableName: string, before: Date): Promise<OverviewBackfill> {
  const data = createDataService(client, tableName);
  await data.load();
  const cutoff = before.toISOString();
  const result: OverviewBackfill = { payments: 0, subscriptions: 0, licenses: 0, counts: 0 };
  const totals = new Map<string, { tenantId: string; scope: string; day: string; metric: OverviewChange['metric']; name: string; by: number }>();
  const add = ({ tenantId, productId, change }: Counted) => {
    for (const scope of productId ? [productId, ALL_PRODUCTS] : [ALL_PRODUCTS]) {
      const key = JSON.stringify([tenantId, scope, change.day, change.metric, change.name]);
      const total = totals.get(key) ?? { tenantId, scope, day: change.day, metric: change.metric, name: change.name, by: 0 };
      total.by += change.by;
      totals.set(key, total);
    }
  };
  await client.send(new PutCommand({ TableName: tableName, Item: { ...MARKER_KEY, startedAt: new Date().toISOString() }, ConditionExpression: 'attribute_not_exists(pk)' })).catch((error: Error) => {
    throw error.name === 'ConditionalCheckFailedException' ? new AlreadyBackfilledError('The overview was backfilled already') : error;
  });
  let startKey: ScanCommandOutput['LastEvaluatedKey'];
  do {
    const page = await client.send(
      new ScanCommand({
        TableName: tableName,
        FilterExpression: '#entity IN (:payment, :subscription, :license) AND createdAt < :before',
        ExpressionAttributeNames: { '#entity': '__edb_e__' },
        ExpressionAttributeValues: { ':payment': 'payment', ':subscription': 'subscription', ':license': 'license', ':before': cutoff },
        ExclusiveStartKey: startKey,
      }),
    );
    for (const item of page.Items ?? []) {
      const kind = item.__edb_e__ as 'payment' | 'subscription' | 'license';
      result[`${kind}s`] += 1;
      for (const change of changesOf(item, cutoff)) add({ tenantId: item.tenantId, productId: item.productId || undefined, change });
    }
    startKey = page.LastEvaluatedKey;
  } while (startKey);

  const pending = [...totals.values()].filter((total) => total.by !== 0);
  result.counts = pending.length;
  const workers = Array.from({ length: WRITE_CONCURRENCY }, async () => {
    for (let next = pending.pop(); next; next = pending.pop()) {
      const { by, ...key } = next;
      await writeItem(() => data.entities.overviewCount.update(key).add({ count: by }).go({ response: 'none' }));
    }
  });
  await Promise.all(workers);
  return result;
}
