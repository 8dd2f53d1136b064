import { ALL_PRODUCTS, type OverviewMetric, writeItem } from '../../platform/data/index.js';
import type { InstallSeenMessage } from '../analytics/usage-message.js';
import { logger } from '../../platform/observability/index.js';
import type { Deps } from '../../platform/index.js';
import { addSitesToSketch } from './install-sketches.js';

type Sighting = { messageId: string; message: InstallSeenMessage & { tenantId: string; site: string } };
type Group<T> = { key: T; messageIds: string[]; sites: string[] };

/** Groups the messages by each key they name (compared as JSON), with their sites. */
function groupBy<T>(sightings: Sighting[], keysOf: (sighting: Sighting) => T[]): Group<T>[] {
  const groups = new Map<string, Group<T>>();
  for (const sighting of sightings) {
    for (const key of keysOf(sighting)) {
      const id = JSON.stringify(key);
      const group = groups.get(id) ?? { key, messageIds: [], sites: [] };
      group.messageIds.push(sighting.messageId);
      group.sites.push(sighting.message.site);
      groups.set(id, group);
    }
  }
  return [...groups.values()];
}

const scopesOf = (productId: string) => [productId, ALL_PRODUCTS];

/** The counts a sighting bumps in each scope: the site seen that day, under its version, PHP and WordPress. */
function countsOf({ message }: Sighting) {
  const named: [OverviewMetric, string | undefined][] = [['sightings', 'all'], ['version', message.version], ['php', message.php], ['wp', message.wp]];
  return scopesOf(message.productId).flatMap((scope) =>
    named.flatMap(([metric, name]) => (name ? [{ tenantId: message.tenantId, scope, day: message.day, metric, name }] : [])),
  );
}

/**
 * The overview's part of a usage batch's install sightings: each day's sketch of the product and of the tenant's
 * rollup gets the batch's sites in one merge, and each count is bumped once with `ADD n`. Answers the messages
 * whose writes failed, to be received again: a sketch takes a site twice harmlessly; a count is at least once.
 */
export async function writeSightings(deps: Pick<Deps, 'data'>, messages: { messageId: string; message: InstallSeenMessage }[]): Promise<string[]> {
  const sightings = messages.filter((m): m is Sighting => m.message.tenantId !== undefined && m.message.site !== undefined);
  if (sightings.length === 0) return [];
  const sketches = groupBy(sightings, ({ message }) => scopesOf(message.productId).map((scope) => ({ tenantId: message.tenantId, scope, day: message.day })));
  const writes = [
    ...sketches.map((group) => ({ group, write: () => addSitesToSketch(deps, group.key, group.sites) })),
    ...groupBy(sightings, countsOf).map((group) => ({
      group,
      write: () => writeItem(() => deps.data.entities.overviewCount.update(group.key).add({ count: group.messageIds.length }).go({ response: 'none' })),
    })),
  ];
  const outcomes = await Promise.allSettled(writes.map(({ write }) => write()));
  return outcomes.flatMap((outcome, i) => {
    if (outcome.status === 'fulfilled') return [];
    logger.error('Overview sighting not written; its messages return to the queue', { key: writes[i]!.group.key, error: outcome.reason });
    return writes[i]!.group.messageIds;
  });
}
