import type { MockTable } from './mock-table.js';

/** Items for the mocked table, with ids of the real shape. */
export const NOW = new Date('2030-01-01T00:00:00.000Z');
export const TENANT = 'usr_aaaaaaaaaaaaaaaaaaaaaaaa';
export const ids = {
  product: 'prd_aaaaaaaaaaaaaaaaaaaaaaaa',
  plan: 'pln_aaaaaaaaaaaaaaaaaaaaaaaa',
  release: 'rel_aaaaaaaaaaaaaaaaaaaaaaaa',
  customer: 'cus_aaaaaaaaaaaaaaaaaaaaaaaa',
  license: 'lic_aaaaaaaaaaaaaaaaaaaaaaaa',
  activation: 'act_aaaaaaaaaaaaaaaaaaaaaaaa',
  webhook: 'whk_aaaaaaaaaaaaaaaaaaaaaaaa',
  delivery: 'dlv_aaaaaaaaaaaaaaaaaaaaaaaa',
};
export const LICENSE_KEY = 'WIDGET-ABCD-EFGH-JKLM-NPQR';
const PUBLIC_KEY = 'pk_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa';

const at = NOW.toISOString();

const productItem = {
  productId: ids.product, tenantId: TENANT, name: 'Widget', slug: 'widget', productType: 'plugin', status: 'active',
  isPremium: false, requiresLicense: true, managesReleases: true, licensePrefix: 'WIDGET-', publicKey: PUBLIC_KEY,
  // A product made under DECISIONS §22's one-release-per-version rule: its published versions are claimed as they go.
  plansCount: 1, versionsClaimed: true, createdAt: at, updatedAt: at,
};

export const licenseItem = {
  licenseKey: LICENSE_KEY, licenseId: ids.license, tenantId: TENANT, productId: ids.product, customerEmail: 'buyer@example.com',
  status: 'active', seats: 3, activatedCount: 1, createdAt: at, updatedAt: at,
};

export const activationItem = {
  activationId: ids.activation, licenseId: ids.license, tenantId: TENANT, productId: ids.product, domain: 'example.com',
  ipAddress: '203.0.113.9', status: 'active', activatedAt: at,
};

export function seedProduct(table: MockTable): void {
  table.seed('product', productItem);
}

/** A license with one active activation, its id ref and its customer's e-mail holder. */
export function seedLicense(table: MockTable): void {
  table.seed('license', licenseItem);
  table.seed('licenseRef', { licenseId: ids.license, licenseKey: LICENSE_KEY, tenantId: TENANT });
  table.seed('activation', activationItem);
  table.seed('activeDomain', { licenseId: ids.license, domain: 'example.com', activationId: ids.activation, activatedAt: at });
}
