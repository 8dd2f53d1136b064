import { setTimeout as sleep } from 'node:timers/promises';
import { jitteredBackoffMs, MAX_STORAGE_ATTEMPTS, writeItem } from '../../platform/data/index.js';
import { type Deps, ServiceUnavailableError } from '../../platform/index.js';
import { addSites, emptySketch } from './hyperloglog.js';

type SketchKey = { tenantId: string; scope: string; day: string };

/**
 * Adds sites to a day's sketch without losing another writer's: the sketch is read (strongly consistent), merged,
 * and written only if its `revision` is still the one read (a new sketch only if none was made meanwhile); a
 * writer that lost the race reads and merges again. Sites that change no register cost the read alone.
 */
export async function addSitesToSketch(deps: Pick<Deps, 'data'>, key: SketchKey, sites: string[]): Promise<void> {
  const sketches = deps.data.entities.installSketch;
  for (let attempt = 0; attempt < MAX_STORAGE_ATTEMPTS; attempt++) {
    const { data: stored } = await sketches.get(key).go({ consistent: true });
    const registers = stored ? new Uint8Array(stored.registers as Uint8Array) : emptySketch();
    if (!addSites(registers, sites)) return;
    const revision = (stored?.revision ?? 0) + 1;
    const written = stored
      ? await writeItem(() =>
          sketches
            .patch(key)
            .set({ registers, revision })
            .where(({ revision: current }, { eq }) => eq(current, stored.revision))
            .go({ response: 'none' }),
        )
      : await writeItem(() => sketches.create({ ...key, registers, revision }).go({ response: 'none' }));
    if (written.written) return;
    await sleep(jitteredBackoffMs(attempt));
  }
  throw new ServiceUnavailableError();
}

/** The sketches of these days, as stored (days without a sighting have none): one Query of the scope's partition. */
export async function readSketches(deps: Pick<Deps, 'data'>, tenantId: string, scope: string, from: string, to: string): Promise<Uint8Array[]> {
  const { data } = await deps.data.entities.installSketch.query.byScope({ tenantId, scope }).between({ day: from }, { day: to }).go({ pages: 'all' });
  return data.map((item) => new Uint8Array(item.registers as Uint8Array));
}
