import { createHash } from 'node:crypto';
import { CHANNELS } from '../../platform/data/index.js';

export { CHANNELS };

/**
 * Release channels (DECISIONS §14), from the most to the least stable. A license (or plan) on a channel receives
 * releases of that channel and of every more stable one: `beta` gets beta and stable, `alpha` all three.
 */
export type Channel = (typeof CHANNELS)[number];
export const DEFAULT_CHANNEL: Channel = 'stable';

export const DEFAULT_ROLLOUT_PERCENT = 100;

const rank = (channel: Channel) => CHANNELS.indexOf(channel);

/** True when a caller receiving `allowed` may have a release of `channel`. */
export const channelAllows = (allowed: Channel, channel: Channel) => rank(channel) <= rank(allowed);

/** The site's own choice of channel, capped by what its license allows; no choice means the license's. */
export const cappedChannel = (allowed: Channel, chosen: Channel | undefined): Channel =>
  chosen !== undefined && rank(chosen) < rank(allowed) ? chosen : allowed;

/**
 * Where a site falls in a release's rollout, 0–99: the first 4 bytes of SHA-256 of `<releaseId>:<subject>` as an
 * unsigned big-endian integer, mod 100. `subject` is the site's normalized domain, or the license key when the
 * check names no domain. Per release, so each rollout draws its own sites; clients can compute it (docs/api.md).
 */
export function rolloutBucket(releaseId: string, subject: string): number {
  return createHash('sha256').update(`${releaseId}:${subject}`).digest().readUInt32BE(0) % 100;
}

/** True when the rollout of `release` has reached the site named by `subject`. */
export const inRollout = (release: { releaseId: string; rolloutPercent?: number }, subject: string) =>
  rolloutBucket(release.releaseId, subject) < (release.rolloutPercent ?? DEFAULT_ROLLOUT_PERCENT);
