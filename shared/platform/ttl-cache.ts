/**
 * A read-through cache for one container: entries live `ttlMs`, concurrent misses of one key share
 * one load, failed loads, `undefined` (not found) and values that `keep` refuses are not kept (the callers
 * of that load still get them), and the oldest entries go first when `maxEntries` is reached.
 */
export class TtlCache<V> {
  private readonly entries = new Map<string, { value: Promise<V | undefined>; expiresAt: number }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  get(key: string, load: () => Promise<V | undefined>, keep: (value: V) => boolean = () => true): Promise<V | undefined> {
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
    value.then((result) => (result === undefined || !keep(result)) && forget(), forget);
    return value;
  }

  delete(key: string): void {
    this.entries.delete(key);
  }
}
