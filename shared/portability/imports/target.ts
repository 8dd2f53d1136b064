import type { StagingRules } from '../../licensing/index.js';
import type { Channel } from '../../catalog/index.js';

/**
 * What an import writes into: the product and the feature keys it defines, its plans by slug (with the features each
 * grants), and its staging rules (which sites take a seat).
 */
export type ImportTarget = {
  tenantId: string;
  productId: string;
  features: ReadonlySet<string>;
  plansBySlug: Map<string, { planId: string; siteLimit: number; channel?: Channel; features: string[] }>;
  staging: StagingRules;
};
