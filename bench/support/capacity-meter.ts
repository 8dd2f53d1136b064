import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/** Read capacity of a client's requests as DynamoDB reports it (bench/license-list.ts, bench/overview.ts). */
export type Meter = { rcu: number; items: number; requests: number };

/** Asks DynamoDB for the consumed capacity of every call on this client (the document client's, `documents`), and adds it and the items read up. */
export function meter(client: DynamoDBClient): Meter {
  const totals: Meter = { rcu: 0, items: 0, requests: 0 };
  client.middlewareStack.add(
    (next) => async (args) => {
      (args.input as Record<string, unknown>).ReturnConsumedCapacity = 'TOTAL';
      const result = await next(args);
      const output = result.output as {
        ConsumedCapacity?: { CapacityUnits?: number } | { CapacityUnits?: number }[];
        ScannedCount?: number;
        Item?: unknown;
        Responses?: Record<string, unknown[]>;
      };
      const consumed = [output.ConsumedCapacity ?? []].flat();
      totals.rcu += consumed.reduce((sum, c) => sum + (c.CapacityUnits ?? 0), 0);
      totals.items += output.ScannedCount ?? (output.Item ? 1 : 0) + Object.values(output.Responses ?? {}).reduce((n, r) => n + r.length, 0);
      totals.requests++;
      return result;
    },
    { step: 'initialize', name: 'benchCapacityMeter' },
  );
  return totals;
}

/** Runs `task(i)` for i in [0, count) with at most `limit` in flight. */
export async function pool(count: number, limit: number, task: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < count) await task(next++);
    }),
  );
}

