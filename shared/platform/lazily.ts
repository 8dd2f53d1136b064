/** A function answering `build()`'s value, built by its first call and kept: work a cold start may never need. */
export function lazily<T>(build: () => T): () => T {
  let built: { value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}
