import { z } from 'zod';

const METADATA_MAX_DEPTH = 8;
const METADATA_MAX_BYTES = 8 * 1024;

/** Levels of nesting: `{}` and `{a: 1}` are 1, `{a: {b: 1}}` is 2. */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0;
  const children = Object.values(value as Record<string, unknown>);
  return 1 + Math.max(0, ...children.map(depthOf));
}

/** Free-form metadata (DECISIONS §10): a JSON object of at most 8 levels and 8 KB as JSON. */
export const metadataSchema = z
  .record(z.string(), z.unknown())
  .refine((value) => depthOf(value) <= METADATA_MAX_DEPTH, `must nest at most ${METADATA_MAX_DEPTH} levels`)
  .refine((value) => Buffer.byteLength(JSON.stringify(value)) <= METADATA_MAX_BYTES, `must be at most ${METADATA_MAX_BYTES} bytes as JSON`);
