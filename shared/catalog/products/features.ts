import { BadRequestError } from '../../platform/index.js';

/**
 * Features (DECISIONS §23): a product defines them, its plans grant some, licenses carry them. A key is what the
 * software asks about (`hasFeature('reports')`), so it is plain: lower-case letters, digits and `-`, 1–64.
 */
export const FEATURE_KEY_PATTERN = /^[a-z0-9-]{1,64}$/;
/** Features one product may define. */
export const MAX_FEATURES = 100;

export type Feature = { key: string; name: string };
type WithFeatures = { features?: Feature[] };

const definedKeys = (product: WithFeatures) => new Set((product.features ?? []).map((feature) => feature.key));

/** The keys, once each in the order given, when the product defines every one; else 400 naming the first it does not. */
export function checkFeatureKeys(product: WithFeatures, keys: readonly string[]): string[] {
  const defined = definedKeys(product);
  const unknown = keys.find((key) => !defined.has(key));
  if (unknown !== undefined) throw new BadRequestError(`Unknown feature: ${unknown}`, [{ path: 'features', message: `${unknown} is not a feature of the product` }]);
  return [...new Set(keys)];
}

/**
 * What a plan grants of its product's features now: a feature the product no longer defines has left its plans
 * (licenses already issued keep it until edited, docs/api.md).
 */
export function grantedFeatures(product: WithFeatures, planFeatures: readonly string[] | undefined): string[] {
  const defined = definedKeys(product);
  return (planFeatures ?? []).filter((key) => defined.has(key));
}
