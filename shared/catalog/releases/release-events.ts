import type { EventType } from '../../messaging/index.js';

type ReleaseState = { status: string; channel?: string; rolloutPercent?: number };

/**
 * The event a release change emits (docs/api.md, Events): `release.published` when it becomes published (created so,
 * or first moved there), `release.updated` when a published release's channel or rollout changes, which changes who
 * is offered it. Other changes (notes, metadata, drafts) emit nothing.
 */
export function releaseEvent(before: ReleaseState | undefined, after: ReleaseState | undefined): EventType | undefined {
  if (after?.status !== 'published') return undefined;
  if (before?.status !== 'published') return 'release.published';
  const reaches = (release: ReleaseState) => `${release.channel ?? 'stable'}:${release.rolloutPercent ?? 100}`;
  return reaches(before) === reaches(after) ? undefined : 'release.updated';
}
