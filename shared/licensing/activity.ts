import { writeItem } from '../data/writes.js';
import { logger } from '../observability/logger.js';
import type { Deps } from '../runtime.js';

/** How often one container records the same activation's last check: often enough to see it, rarely enough to cost little. */
export const ACTIVITY_INTERVAL_MS = 60_000;
const MAX_TRACKED = 50_000;

export type ActivityRecorder = ReturnType<typeof createActivityRecorder>;

/**
 * Records when and from where an active activation was last seen (`lastCheckedAt`, `lastIpAddress`).
 * It is bookkeeping, not part of any answer: each container writes an activation at most once per
 * ACTIVITY_INTERVAL_MS, and a failed write is logged, never returned to the caller.
 */
export function createActivityRecorder(deps: Pick<Deps, 'data' | 'clock'>, intervalMs = ACTIVITY_INTERVAL_MS) {
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

  /** Refused when deactivated meanwhile: there is nothing to record then. */
  async function touch(activationId: string, ipAddress: string): Promise<void> {
    await writeItem(() =>
      deps.data.entities.activation
        .patch({ activationId })
        .set({ lastCheckedAt: deps.clock.now().toISOString(), lastIpAddress: ipAddress })
        .where(({ status }, { eq }) => eq(status, 'active'))
        .go({ response: 'none' }),
    );
  }

  const logFailure = (error: unknown) => logger.warn('Activity not recorded', { error });

  return {
    /** A known activation was seen (activate of an active domain, check). */
    async activationSeen(activationId: string, ipAddress: string): Promise<void> {
      if (!due(activationId)) return;
      await touch(activationId, ipAddress).catch(logFailure);
    },
    /** A validate named a domain: finds its active activation, if any, and records the check. */
    async domainSeen(licenseId: string, domain: string, ipAddress: string): Promise<void> {
      if (!due(`${licenseId}#${domain}`)) return;
      try {
        const { data } = await deps.data.entities.activeDomain.get({ licenseId, domain }).go();
        if (data) await touch(data.activationId, ipAddress);
      } catch (error) {
        logFailure(error);
      }
    },
  };
}
