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
export type Webhook = Schemas['Webhook'];
export type Delivery = Schemas['Delivery'];
export type Pagination = Schemas['Pagination'];
export type ProductAnalytics = Schemas['ProductAnalytics'];
export type Overview = Schemas['Overview'];
export type Feedback = Schemas['Feedback'];
export type UsageEvent = Schemas['UsageEvent'];
export type DeactivationReason = Schemas['DeactivationReason'];

export type LicenseStatus = License['status'];
export type ReleaseStatus = Release['status'];
export type BillingCycle = Plan['billingCycle'];
export type ProductType = Product['productType'];
export type WebhookEvent = Schemas['WebhookList']['events'][number];
