import { describe, expect, it } from 'vitest';
import { latestVersionChange, recomputeLatest } from '../../../shared/catalog/releases/latest-version.js';
import { compareVersions, highestVersion, PLATFORM_VERSION_PATTERN, VERSION_PATTERN, versionKey } from '../../../shared/catalog/releases/versions.js';

describe('compareVersions', () => {
  it.each([
    ['1.10.0', '1.9', 1],
    ['1.2', '1.2.0', 0],
    ['1.2', '1.2.0.0', 0],
    ['v2.1', '2.1', 0],
    ['2.0.0-beta', '2.0.0', -1],
    ['2.0', '2.0.0-beta', 1],
    ['2.0.0-alpha', '2.0.0-beta', -1],
    ['2.0.0-beta.2', '2.0.0-beta.10', -1],
    ['4.0RC1', '4.0beta3', 1],
    ['4.0RC1', '4.0', -1],
    ['1.0-dev', '1.0-alpha', -1],
    ['1.0-pl1', '1.0', 1],
    ['1.0.1', '1.0-beta', 1],
    ['1.0+build.5', '1.0', 0],
    ['010.0', '9.0', 1],
    ['12345678901234567890.1', '12345678901234567889.9', 1],
    ['1.0-foo', '1.0-dev', -1],
  ] as const)('%s vs %s is %i', (a, b, expected) => {
    expect(compareVersions(a, b)).toBe(expected);
    expect(compareVersions(b, a)).toBe(-expected || 0);
    // The key of a version claim (DECISIONS §22) is one for equal versions, and only for them.
    expect(versionKey(a) === versionKey(b)).toBe(expected === 0);
  });

  it('gives equal versions one claim key, and unequal ones different keys', () => {
    const versions = ['1', '1.0', '1.0.0', 'v1', '1+7', '1.0-beta', '1-beta', '1.0beta', '1.0.0.1', '1.00.0', '0', '0.0', '1.2-rc.1', '1.2RC1', '1.2-a', '1.2-alpha', '01.2'];
    for (const a of versions) {
      for (const b of versions) expect(versionKey(a) === versionKey(b), `${a} ${b}`).toBe(compareVersions(a, b) === 0);
    }
    expect(versionKey('1.2.0')).toBe('1.2');
    expect(versionKey('0.0')).toBe('0');
  });

  it('picks the highest of several versions, or none', () => {
    expect(highestVersion(['1.9', '1.10.0', '1.2', '1.10.0-rc1'])).toBe('1.10.0');
    expect(highestVersion([])).toBeUndefined();
  });

  it('accepts plugin version strings and refuses others', () => {
    for (const ok of ['1', '1.2.3', '2.0.0-beta.1', '3.1+build.7', 'v1.0']) expect(VERSION_PATTERN.test(ok), ok).toBe(true);
    for (const bad of ['', ' 1.0', '1.0 beta', '-1', '.1', 'x'.repeat(51), '1/2']) expect(VERSION_PATTERN.test(bad), bad).toBe(false);
  });

  it("accepts platform versions (tested, requires, requiresPhp) and refuses words", () => {
    for (const ok of ['6', '6.7', '7.4', '8.2.1', '6.7.1.2']) expect(PLATFORM_VERSION_PATTERN.test(ok), ok).toBe(true);
    for (const bad of ['latest', 'seven', '6.x', '7.4+', ' 6.7', '6.7.1.2.3', '']) expect(PLATFORM_VERSION_PATTERN.test(bad), bad).toBe(false);
  });
});

describe('latestVersionChange', () => {
  const release = (version: string, status = 'published', releaseId = 'rel_a') => ({ releaseId, version, status });

  it('sets a newly published higher version, including the first one', () => {
    expect(latestVersionChange(undefined, undefined, release('1.0'))).toEqual({ kind: 'set', version: '1.0' });
    expect(latestVersionChange('1.0', undefined, release('1.1'))).toEqual({ kind: 'set', version: '1.1' });
    expect(latestVersionChange('1.0', release('1.0', 'draft'), release('1.1'))).toEqual({ kind: 'set', version: '1.1' });
  });

  it('keeps the latest for lower, equal or unpublished changes that do not touch the latest', () => {
    expect(latestVersionChange('2.0', undefined, release('1.5'))).toEqual({ kind: 'keep' });
    expect(latestVersionChange('2.0', undefined, release('3.0', 'draft'))).toEqual({ kind: 'keep' });
    expect(latestVersionChange('2.0', release('1.0'), undefined)).toEqual({ kind: 'keep' });
    expect(latestVersionChange('2.0', release('2.0'), release('2.0.0'))).toEqual({ kind: 'keep' });
    expect(latestVersionChange(undefined, release('1.0', 'draft'), undefined)).toEqual({ kind: 'keep' });
  });

  it('recomputes when the release holding the latest is deleted, unpublished or lowered', () => {
    expect(latestVersionChange('2.0', release('2.0'), undefined)).toEqual({ kind: 'recompute' });
    expect(latestVersionChange('2.0', release('2.0'), release('2.0', 'archived'))).toEqual({ kind: 'recompute' });
    expect(latestVersionChange('2.0', release('2.0'), release('1.5'))).toEqual({ kind: 'recompute' });
  });

  it('recomputes from the other published releases plus the changed one', () => {
    const others = [release('1.0', 'published', 'rel_1'), release('1.5', 'draft', 'rel_2'), release('2.0', 'published', 'rel_3')];
    expect(recomputeLatest(others, 'rel_3', undefined)).toBe('1.0');
    expect(recomputeLatest(others, 'rel_3', release('0.5', 'published', 'rel_3'))).toBe('1.0');
    expect(recomputeLatest(others, 'rel_3', release('1.2', 'published', 'rel_3'))).toBe('1.2');
    expect(recomputeLatest([release('1.0', 'draft', 'rel_1')], 'rel_9', undefined)).toBeUndefined();
  });
});
