import { describe, expect, it } from 'vitest';
import { TtlCache } from '../../../shared/platform/ttl-cache.js';

describe('TtlCache', () => {
  it('loads once per key while fresh, shares a concurrent load, and reloads after the lifetime', async () => {
    let clock = 0;
    let loads = 0;
    const cache = new TtlCache<number>(1000, 10, () => clock);
    const load = async () => ++loads;
    expect(await Promise.all([cache.get('a', load), cache.get('a', load)])).toEqual([1, 1]);
    clock = 999;
    expect(await cache.get('a', load)).toBe(1);
    clock = 1000;
    expect(await cache.get('a', load)).toBe(2);
  });

  it('keeps neither "not found" nor failures', async () => {
    const cache = new TtlCache<string>(60_000);
    expect(await cache.get('k', async () => undefined)).toBeUndefined();
    expect(await cache.get('k', async () => 'now there')).toBe('now there');
    await expect(cache.get('e', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('e', async () => 'recovered')).toBe('recovered');
  });

  it('hands a value its `keep` refuses to the callers of that load, and loads afresh next time', async () => {
    let loads = 0;
    const cache = new TtlCache<number>(60_000);
    const load = async () => ++loads;
    const onlyEven = (n: number) => n % 2 === 0;
    expect(await Promise.all([cache.get('k', load, onlyEven), cache.get('k', load, onlyEven)])).toEqual([1, 1]);
    expect(await cache.get('k', load, onlyEven)).toBe(2);
    expect(await cache.get('k', load, onlyEven)).toBe(2);
  });

  it('drops the oldest entry when full', async () => {
    let loads = 0;
    const cache = new TtlCache<number>(60_000, 2);
    const load = async () => ++loads;
    await cache.get('a', load);
    await cache.get('b', load);
    await cache.get('c', load);
    expect(await cache.get('b', load)).toBe(2);
    expect(await cache.get('a', load)).toBe(4);
  });
});
