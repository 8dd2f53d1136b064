/** Features (the service's DECISIONS §23): what the license's plan switches on, asked by key inside the software. */
import type { FeatureCheck, InvalidResult, ValidResult } from './types.js';

/**
 * The result with `hasFeature(key)`: true when the valid license carries the feature, from the service's verified
 * answer, the cached one or an offline file (all signed); false when it is not valid. Not enumerable, so the result
 * stays plain data (compared, logged or stored as before).
 */
export function withFeatureCheck<T extends ValidResult | InvalidResult>(result: T): T & FeatureCheck {
  const features: readonly string[] = result.valid ? (result.license.features ?? []) : [];
  return Object.defineProperty(result, 'hasFeature', { value: (key: string) => features.includes(key), enumerable: false }) as T & FeatureCheck;
}
