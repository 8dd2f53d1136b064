import type { components } from './schema.gen';

/** The service's resources as the OpenAPI document describes them. */
type Schemas = components['schemas'];
export type User = Schemas['User'];
export type TeamUser = Schemas['TeamUser'];
export type ApiKeySummary = Schemas['ApiKeySummary'];
export type Product = Schemas['Product'];
export type Release = Schemas['Release'];
export type Plan = Schemas['Plan'];
export type License = Schemas['License'];
export type LicenseWithActivations = Schemas['LicenseWithActivations'];
export type Activation = Schemas['Activation'];
export type Customer = Schemas['Customer'];
export type Member = Schemas['Member'];
export type Invitation = Schemas['Invitation'];
export type Coupon = Schemas['Coupon'];
export type Webhook = Schemas['Webhook'];
export type Delivery = Schemas['Delivery'];
export type Pagination = Schemas['Pagination'];
export type ProductAnalytics = Schemas['ProductAnalytics'];
export type Overview = Schemas['Overview'];
export type Feedback = Schemas['Feedback'];
export type UsageEvent = Schemas['UsageEvent'];
export type DeactivationReason = Schemas['DeactivationReason'];
/** As the client reads it: openapi-fetch reads each change's `[before, after]` pair as an array. */
export type AuditEntry = Omit<Schemas['AuditEntry'], 'changes'> & { changes: Record<string, unknown[]> };

export type LicenseStatus = License['status'];
export type ReleaseStatus = Release['status'];
export type BillingCycle = Plan['billingCycle'];
export type ProductType = Product['productType'];
export type WebhookEvent = Schemas['WebhookList']['events'][number];
export type GettingStarted = Schemas['GettingStarted'];
export type FirstActivation = Schemas['FirstActivation']['firstActivation'];
