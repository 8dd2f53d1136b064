import { dayOf, type UsageQueue } from '../../insights/index.js';
import { writeItem } from '../../platform/data/index.js';
import { logger } from '../../platform/observability/index.js';
import type { Deps } from '../../platform/index.js';

/** How often one container records the same domain's last check: often enough to see it, rarely enough to cost little. */
export const ACTIVITY_INTERVAL_MS = 60_000;
const MAX_TRACKED = 50_000;

type SeenLicense = { licenseId: string; productId: string; tenantId: string };
type Platform = { php?: string; wp?: string };

export type ActivityRecorder = {
  /**
   * A validate, check or repeated activate named an active domain of the license; `version`: the product's, as the
   * site runs it; `platform`: the PHP and WordPress versions an update check reports.
   */
  domainSeen(license: SeenLicense, domain: string, ipAddress: string, version?: string, platform?: Platform): Promise<void>;
};

/**
 * Records when and from where an active domain was last seen (`lastCheckedAt`, `lastIpAddress`) on its
 * `activeDomain` item: one conditional UpdateItem of a small item that no index copies, so 1 write unit
 * and no read. The activation item (and its three index copies) is not rewritten; views read the last
 * check from the activeDomain item, and deactivation copies it onto the activation.
 * The first check of each day also counts the install in its product's daily counts (analytics), through the
 * usage queue: the writer bumps each count once per batch, so the check itself stays one write unit.
 * It is bookkeeping, not part of any answer: each container writes a domain at most once per
 * ACTIVITY_INTERVAL_MS, and a failed write is logged, never returned to the caller.
 */
export function createActivityRecorder(deps: Pick<Deps, 'data' | 'clock'> & { usage: UsageQueue }, intervalMs = ACTIVITY_INTERVAL_MS): ActivityRecorder {
  const lastWritten = new Map<string, number>();

  /** True (and remembered) when `key` was not recorded within the interval. */
  function due(key: string): boolean {
    const now = deps.clock.now().getTime();
    const last = lastWritten.get(key);
    if (last !== undefined && now - last < intervalMs) return false;
    if (lastWritten.size >= MAX_TRACKED) lastWritten.clear();
    lastWritten.set(key, now);
    return true;
  }

  const logFailure = (error: unknown) => logger.warn('Activity not recorded', { error });

  return {
    /**
     * A validate, check or repeated activate named a domain of the license. `patch` writes only if the
     * activeDomain item exists, so a domain that is not active (or was deactivated meanwhile) records nothing.
     */
    async domainSeen(license: SeenLicense, domain: string, ipAddress: string, version?: string, platform?: Platform): Promise<void> {
      const { licenseId, productId, tenantId } = license;
      if (!due(`${licenseId}#${domain}`)) return;
      const now = deps.clock.now();
      // A direct update (shared/platform/data/direct-request-shapes.ts): a validate that names a domain loads no data model.
      const seen = { licenseId, domain, lastCheckedAt: now.toISOString(), lastIpAddress: ipAddress };
      const recorded = await writeItem(() => deps.data.updates.domainSeen(seen)).catch(logFailure);
      // The first check of a UTC day (DynamoDB applies one update to an item at a time, so exactly one write sees
      // the day change) counts the install as active that day, and under the version it reports.
      const day = dayOf(now);
      const previous = recorded?.written ? recorded.value?.lastCheckedAt : day;
      if (previous !== undefined && previous.startsWith(day)) return;
      await deps.usage.send({ kind: 'install', productId, day, version, tenantId, site: domain, php: platform?.php, wp: platform?.wp }).catch(logFailure);
    },
  };
}
