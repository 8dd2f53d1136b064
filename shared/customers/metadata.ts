import * as z from 'zod/mini';

const METADATA_MAX_DEPTH = 8;
const METADATA_MAX_BYTES = 8 * 1024;

/**
 * True when `value` nests at most `maxDepth` levels (`{}` and `{a: 1}` are 1, `{a: {b: 1}}` is 2; arrays count).
 * Walked with an explicit stack and stopped at the first value too deep, so 100,000 levels cost little and
 * cannot overflow the call stack.
 */
export function nestsAtMost(value: unknown, maxDepth: number): boolean {
  const pending: { value: unknown; depth: number }[] = [{ value, depth: 0 }];
  while (pending.length) {
    const next = pending.pop()!;
    if (next.value === null || typeof next.value !== 'object') continue;
    const depth = next.depth + 1;
    if (depth > maxDepth) return false;
    for (const child of Object.values(next.value)) pending.push({ value: child, depth });
  }
  return true;
}

/**
 * Free-form metadata (DECISIONS §10): a JSON object of at most 8 levels and 8 KB as JSON. The size is only
 * measured once the depth is known to be small: JSON.stringify recurses.
 */
export const metadataSchema = z
  .record(z.string(), z.unknown())
  .check(
    z.refine((value) => nestsAtMost(value, METADATA_MAX_DEPTH), { message: `must nest at most ${METADATA_MAX_DEPTH} levels`, abort: true }),
    z.refine((value) => Buffer.byteLength(JSON.stringify(value)) <= METADATA_MAX_BYTES, `must be at most ${METADATA_MAX_BYTES} bytes as JSON`),
  );
