import { ServiceUnavailableError } from '../../platform/index.js';
import { EXPIRY_SHARDS } from './expiry-items.js';

/**
 * A sweep over due items kept in the expiry shards: each shard's due items (`due`, a key-range query) settled one by
 * one, the shards in parallel, each outcome counted in `result`. An item the table would not let us write now
 * (contention, throttling) counts as `retried` and waits for the next run.
 */
export async function settleDueItems<I, K extends string>(
  due: (shard: string) => Promise<I[]>,
  settle: (item: I) => Promise<K>,
  result: Record<K | 'retried', number>,
): Promise<void> {
  await Promise.all(
    EXPIRY_SHARDS.map(async (shard) => {
      for (const item of await due(shard)) {
        const settled = await settle(item).catch((error: unknown) => {
          if (error instanceof ServiceUnavailableError) return 'retried' as const;
          throw error;
        });
        result[settled]++;
      }
    }),
  );
}
