import type { StagingRules } from '../../licensing/index.js';
import type { Channel } from '../../catalog/index.js';

/** What an import writes into: the product, its plans by slug, and its staging rules (which sites take a seat). */
export type ImportTarget = {
  tenantId: string;
  productId: string;
  plansBySlug: Map<string, { planId: string; siteLimit: number; channel?: Channel }>;
  staging: StagingRules;
};
