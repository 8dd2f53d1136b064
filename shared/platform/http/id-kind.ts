import type { AppError } from '../errors.js';
import { hasIdShape, type IdPrefix } from '../ids.js';

/** A kind of id a route looks up, and what it answers when no such item exists; `shape`: a token's own, not an id's. */
export type IdKind = { prefix: IdPrefix; unknown: () => AppError; shape?: RegExp };

/**
 * An id of another shape cannot name an item: it is answered exactly as an unknown id of its kind,
 * without a read (a 5,000-character id would not even fit in a DynamoDB key).
 */
export function checkIdShape(kind: IdKind, value: string): void {
  if (!(kind.shape ? kind.shape.test(value) : hasIdShape(kind.prefix, value))) throw kind.unknown();
}
