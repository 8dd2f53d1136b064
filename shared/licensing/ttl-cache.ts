/**
 * A read-through cache for one container: entries live `ttlMs`, concurrent misses of one key share
 * one load, failed loads and `undefined` (not found) are not kept, and the oldest entries go first
 * when `maxEntries` is reached.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: Promise<V | undefined>; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string, load: () => Promise<V | undefined>): Promise<V | undefined> {
    const entry = this.entries.get(key);
    if (entry && entry.expiresAt > this.now()) return entry.value;
    this.entries.delete(key);
    if (this.entries.size >= this.maxEntries) this.entries.delete(this.entries.keys().next().value!);
    const value = load();
    const stored = { value, expiresAt: this.now() + this.ttlMs };
    this.entries.set(key, stored);
    const forget = () => {
      if (this.entries.get(key) === stored) this.entries.delete(key);
    };
    value.then((result) => result === undefined && forget(), forget);
    return value;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}
