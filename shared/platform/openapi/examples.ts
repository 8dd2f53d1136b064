import type { IdPrefix } from '../ids.js';

/**
 * One consistent story for the document's examples: one vendor, one product with a plan and a release, one
 * license of one customer activated on one site. Every example is validated against its schema by a test.
 */

/** An id of the right shape (prefix, 24 characters of `a-z2-7`) spelled from `word`. */
export const exampleId = (prefix: IdPrefix, word: string) => `${prefix}_${word.repeat(24).slice(0, 24)}`;

export const EX = {
  userId: exampleId('usr', 'vendor'),
  productId: exampleId('prd', 'acmeseo'),
  planId: exampleId('pln', 'proyearly'),
  publicPlanId: exampleId('pln', 'proyearly').replace(/^pln_/, 'plan_'),
  releaseId: exampleId('rel', 'twozero'),
  licenseId: exampleId('lic', 'janes'),
  activationId: exampleId('act', 'janesite'),
  customerId: exampleId('cus', 'janedoe'),
  webhookId: exampleId('whk', 'crmsync'),
  deliveryId: exampleId('dlv', 'firsttry'),
  eventId: exampleId('evt', 'created'),
  paymentId: exampleId('pay', 'firstpay'),
  subscriptionId: exampleId('sub', 'yearly'),
  apiKeyId: exampleId('key', 'server'),
  signingKeyId: exampleId('sig', 'acmeseo'),
  previousSigningKeyId: exampleId('sig', 'earlier'),
  publicKey: `pk_${'acmeseo'.repeat(6).slice(0, 32)}`,
  secretKey: `sk_${'secretkey'.repeat(5).slice(0, 32)}`,
  webhookSecret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  licenseKey: 'ACME-SEO-7KQ2-M4XR-T9WB-H3NP',
  email: 'jane@example.com',
  vendorEmail: 'vendor@example.com',
  domain: 'janes-bakery.com',
  baseUrl: 'https://licenses.example.com',
  created: '2026-01-15T10:30:00.000Z',
  updated: '2026-01-16T08:00:00.000Z',
  expires: '2027-01-15T10:30:00.000Z',
  filePath: `releases/${exampleId('usr', 'vendor')}/${exampleId('prd', 'acmeseo')}/k2m4x7q9/acme-seo-2.0.0.zip`,
} as const;

/** A product's current signing key as it is shown (the raw key and its PEM are of one real key). */
export const exampleSigningKey = {
  keyId: EX.signingKeyId,
  algorithm: 'ed25519' as const,
  publicKey: 'mSSvQSb51pyyoCVR+vpGnP2PC84pCcLKod96NaFxTwA=',
  publicKeyPem: '-----BEGIN PUBLIC KEY-----\nMCowBQYDK2VwAyEAmSSvQSb51pyyoCVR+vpGnP2PC84pCcLKod96NaFxTwA=\n-----END PUBLIC KEY-----\n',
  createdAt: EX.created,
  expiresAt: null,
  current: true,
};

export const exampleProductSummary = { id: EX.productId, name: 'Acme SEO', slug: 'acme-seo' };

export const exampleLicense = {
  id: EX.licenseId,
  licenseKey: EX.licenseKey,
  productId: EX.productId,
  planId: EX.planId,
  customerId: EX.customerId,
  customerEmail: EX.email,
  customerName: 'Jane Doe',
  status: 'active',
  seats: 3,
  activatedCount: 1,
  stagingCount: 1,
  expiresAt: EX.expires,
  graceUntil: null,
  trialEndsAt: null,
  channel: 'stable',
  floating: false,
  leaseSeconds: 900,
  features: ['reports'],
  createdAt: EX.created,
  updatedAt: EX.updated,
  product: exampleProductSummary,
};

export const exampleActivation = {
  id: EX.activationId,
  licenseId: EX.licenseId,
  domain: EX.domain,
  machine: null,
  name: null,
  platform: null,
  ipAddress: '203.0.113.7',
  status: 'active',
  environment: 'production',
  activatedAt: EX.updated,
  deactivatedAt: null,
  lastCheckedAt: EX.updated,
};

export const exampleActivationListItem = {
  ...exampleActivation,
  license: { id: EX.licenseId, key: EX.licenseKey, customerEmail: EX.email },
  product: { id: EX.productId, name: 'Acme SEO' },
};

export const exampleCustomer = {
  id: EX.customerId,
  email: EX.email,
  firstName: 'Jane',
  lastName: 'Doe',
  company: "Jane's Bakery",
  phone: null,
  street: null,
  city: 'Utrecht',
  state: null,
  postalCode: null,
  country: 'NL',
  timezone: 'Europe/Amsterdam',
  metadata: { crmId: '4711' },
  createdAt: EX.created,
  updatedAt: EX.updated,
};

export const examplePayment = {
  id: EX.paymentId,
  amount: 49,
  currency: 'USD',
  status: 'completed',
  paymentMethod: 'stripe',
  invoicePdfUrl: null,
  productName: 'Acme SEO',
  createdAt: EX.created,
};

export const exampleSubscription = {
  id: EX.subscriptionId,
  status: 'active',
  currentPeriodStart: EX.created,
  currentPeriodEnd: EX.expires,
  cancelAtPeriodEnd: false,
  canceledAt: null,
  planId: EX.planId,
  planName: 'Pro',
  billingCycle: 'yearly',
  price: 49,
  currency: 'USD',
  productName: 'Acme SEO',
  pendingPlanId: null,
  pendingPlanEffectiveAt: null,
};

export const exampleProduct = {
  id: EX.productId,
  name: 'Acme SEO',
  slug: 'acme-seo',
  productType: 'plugin',
  status: 'active',
  isPremium: true,
  requiresLicense: true,
  managesReleases: true,
  licensePrefix: 'ACME-SEO-',
  description: 'Search engine tools for WordPress sites.',
  logoUrl: 'https://cdn.example.com/acme-seo/logo.png',
  bannerUrl: null,
  readmeUrl: null,
  homepage: 'https://acme.example.com/seo',
  icon: null,
  color: '#3366ff',
  tested: '6.7',
  requires: '6.0',
  requiresPhp: '8.1',
  stagingPatterns: null,
  stagingActivationLimit: 3,
  returnOrigins: ['https://acme.example.com'],
  public_key: EX.publicKey,
  latestVersion: '2.0.0',
  plansCount: 1,
  offlineValidityDays: 30,
  updatesAfterExpiry: 'none',
  renewalReminderDays: [7],
  graceDays: 7,
  planChangeProration: 'upgradeNowDowngradeAtRenewal',
  includes: [],
  composerEnabled: false,
  features: [{ key: 'reports', name: 'Reports' }, { key: 'white-label', name: 'White label' }],
  signingKeys: [exampleSigningKey],
  createdAt: EX.created,
  updatedAt: EX.updated,
  deletedAt: null,
};

export const examplePlan = {
  id: EX.planId,
  productId: EX.productId,
  name: 'Pro',
  slug: 'pro',
  billingCycle: 'yearly',
  price: 49,
  currency: 'USD',
  siteLimit: 3,
  shortDescription: 'Three sites, a year of updates',
  isActive: true,
  isPublic: true,
  channel: 'stable',
  trialDays: 0,
  allowPromotionCodes: false,
  features: ['reports'],
  createdAt: EX.created,
  updatedAt: EX.updated,
};

export const exampleRelease = {
  id: EX.releaseId,
  productId: EX.productId,
  version: '2.0.0',
  releaseNotes: 'Faster sitemaps.',
  filePath: EX.filePath,
  fileName: 'acme-seo-2.0.0.zip',
  fileSize: 482133,
  status: 'published',
  downloadCount: 12,
  tested: '6.7',
  requires: null,
  requiresPhp: null,
  channel: 'stable',
  rolloutPercent: 100,
  files: [] as unknown[],
  releasedAt: EX.created,
  createdAt: EX.created,
  updatedAt: EX.created,
};

/** A desktop file of a release (DECISIONS §26). */
export const examplePlatformFile = {
  platform: 'macos-arm64',
  fileName: 'Acme-Notes-2.0.0-arm64-mac.zip',
  fileSize: 98310144,
  filePath: `releases/${exampleId('usr', 'vendor')}/${exampleId('prd', 'acmeseo')}/p3n8w2c5/Acme-Notes-2.0.0-arm64-mac.zip`,
  sha512: 'npP13KxAt2FToX+Akw2JornQx7YT2+IOHCHmTmxHks8JBNWKl+KPXS35blB0iaV2BctrMS7xhMqoY0dCTpo9nw==',
  signature: 'MC0CFQC8kE8xgY0N0l8cC6L8Zf0lN8p5cAIUR1mR2Wq0l8KqjA4+VbkH9mZ8b1Y=',
  createdAt: EX.created,
};

export const exampleWebhook = {
  id: EX.webhookId,
  name: 'CRM sync',
  url: 'https://crm.example.com/hooks/licenses',
  secret: EX.webhookSecret,
  events: ['license.created', 'license.activated'],
  enabled: true,
  lastTriggeredAt: null,
  createdAt: EX.created,
  updatedAt: EX.created,
};

export const exampleUser = {
  id: EX.userId,
  email: EX.vendorEmail,
  name: 'Vendor',
  role: 'developer',
  avatarUrl: null,
  createdAt: EX.created,
  providers: [],
  hasPassword: true,
  emailVerified: true,
};

/** `{items, pagination}` of one page holding `items`. */
export const examplePage = <T>(items: T[]) => ({ items, pagination: { page: 1, perPage: 20, total: items.length, totalPages: 1 } });

/** The example id of each kind, for path parameters. */
export function exampleIdFor(prefix: IdPrefix): string {
  const ids: Partial<Record<IdPrefix, string>> = {
    usr: EX.userId, prd: EX.productId, pln: EX.planId, rel: EX.releaseId, lic: EX.licenseId, act: EX.activationId, cus: EX.customerId,
    whk: EX.webhookId, dlv: EX.deliveryId, evt: EX.eventId, pay: EX.paymentId, sub: EX.subscriptionId, key: EX.apiKeyId,
  };
  return ids[prefix] ?? exampleId(prefix, 'example');
}
