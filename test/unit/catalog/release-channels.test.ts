import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { cappedChannel, channelAllows, inRollout, rolloutBucket } from '../../../shared/catalog/releases/channels.js';
import { releaseEvent } from '../../../shared/catalog/releases/release-events.js';

/** The rollout test vectors published in docs/api.md (the table after `<!-- rollout-vectors -->`). */
function publishedVectors() {
  const doc = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');
  const table = doc.split('<!-- rollout-vectors -->')[1]!.split('\n\n')[0]!;
  return table
    .split('\n')
    .filter((line) => /^\s*\| `rel_/.test(line))
    .map((line) => {
      const [releaseId, subject, hex, bucket] = line.split('|').slice(1, 5).map((cell) => cell.trim().replace(/`/g, ''));
      return { releaseId: releaseId!, subject: subject!, hex: hex!, bucket: Number(bucket) };
    });
}

/** The same hash by another road (WebCrypto), as a client would compute it. */
async function independentBucket(releaseId: string, subject: string) {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(`${releaseId}:${subject}`)));
  const first4 = ((digest[0]! << 24) >>> 0) + (digest[1]! << 16) + (digest[2]! << 8) + digest[3]!;
  return { hex: Buffer.from(digest.subarray(0, 4)).toString('hex'), bucket: first4 % 100 };
}

describe('rollout bucket', () => {
  const vectors = publishedVectors();

  it('matches the test vectors published in docs/api.md, and an independent computation of them', async () => {
    expect(vectors.length).toBeGreaterThanOrEqual(5);
    for (const vector of vectors) {
      expect(rolloutBucket(vector.releaseId, vector.subject), `${vector.releaseId}:${vector.subject}`).toBe(vector.bucket);
      expect(await independentBucket(vector.releaseId, vector.subject)).toEqual({ hex: vector.hex, bucket: vector.bucket });
    }
  });

  it('includes a site exactly when its bucket is below rolloutPercent; 100 includes all; a wider rollout keeps its sites', () => {
    for (const { releaseId, subject, bucket } of vectors) {
      expect(inRollout({ releaseId, rolloutPercent: bucket }, subject)).toBe(false);
      expect(inRollout({ releaseId, rolloutPercent: bucket + 1 }, subject)).toBe(true);
      expect(inRollout({ releaseId, rolloutPercent: 100 }, subject)).toBe(true);
      expect(inRollout({ releaseId }, subject)).toBe(true);
    }
  });

  it('spreads sites evenly: about a fifth of 5000 sites are in a 20% rollout', () => {
    const inside = Array.from({ length: 5000 }, (_, i) => inRollout({ releaseId: 'rel_aaaaaaaaaaaaaaaaaaaaaaaa', rolloutPercent: 20 }, `site-${i}.example`)).filter(Boolean);
    expect(inside.length).toBeGreaterThan(900);
    expect(inside.length).toBeLessThan(1100);
  });
});

describe('channels', () => {
  it('a license on a channel receives that channel and the more stable ones', () => {
    expect(['stable', 'beta', 'alpha'].filter((c) => channelAllows('stable', c as 'stable'))).toEqual(['stable']);
    expect(['stable', 'beta', 'alpha'].filter((c) => channelAllows('beta', c as 'stable'))).toEqual(['stable', 'beta']);
    expect(['stable', 'beta', 'alpha'].filter((c) => channelAllows('alpha', c as 'stable'))).toEqual(['stable', 'beta', 'alpha']);
  });

  it("caps the site's choice by the license's, and takes the license's when the site says nothing", () => {
    expect(cappedChannel('beta', 'alpha')).toBe('beta');
    expect(cappedChannel('stable', 'beta')).toBe('stable');
    expect(cappedChannel('alpha', 'stable')).toBe('stable');
    expect(cappedChannel('alpha', 'beta')).toBe('beta');
    expect(cappedChannel('beta', undefined)).toBe('beta');
  });
});

describe('release events', () => {
  it('publishing emits release.published; a published release whose reach changes emits release.updated; nothing else emits', () => {
    const published = { status: 'published', channel: 'stable' as const, rolloutPercent: 100 };
    expect(releaseEvent(undefined, published)).toBe('release.published');
    expect(releaseEvent({ ...published, status: 'draft' }, published)).toBe('release.published');
    expect(releaseEvent(published, { ...published, rolloutPercent: 50 })).toBe('release.updated');
    expect(releaseEvent(published, { ...published, channel: 'beta' })).toBe('release.updated');
    expect(releaseEvent({ status: 'published' }, published)).toBeUndefined();
    expect(releaseEvent(published, { ...published })).toBeUndefined();
    expect(releaseEvent(undefined, { ...published, status: 'draft' })).toBeUndefined();
    expect(releaseEvent(published, { ...published, status: 'archived' })).toBeUndefined();
    expect(releaseEvent(published, undefined)).toBeUndefined();
  });
});
