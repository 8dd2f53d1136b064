/**
 * The data model: ElectroDB, the document client it sends through, and every entity of the single table. Loaded with
 * `import()` (shared/platform/data/service.ts, `load()`), so a function or route that only sends direct requests (a validate)
 * never parses it: ElectroDB, the document client and the entities are about a third of what an edge function would
 * otherwise load at cold start.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  BatchGetCommand,
  BatchWriteCommand,
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  ScanCommand,
  TransactGetCommand,
  TransactWriteCommand,
  UpdateCommand,
} from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { createWriteTransaction } from 'electrodb';
import electroDbSdk from './electrodb-sdk.cjs';
import { activationEntity, activeDomainEntity } from './entities/activation.js';
import { apiKeyEntity } from './entities/api-key.js';
import { auditEntryEntity, auditHeadEntity, personalDataKeyEntity } from './entities/audit.js';
import { paymentEntity, subscriptionEntity } from './entities/billing.js';
import { accountSettingsEntity, composerInstallEntity, composerVendorEntity } from './entities/composer.js';
import { checkoutSessionEntity } from './entities/checkout-session.js';
import { couponCodeEntity, couponEntity } from './entities/coupon.js';
import { counterEntity } from './entities/counter.js';
import { customerEmailEntity, customerEntity } from './entities/customer.js';
import { deactivationReasonEntity } from './entities/deactivation-reason.js';
import { emailVerificationEntity } from './entities/email-verification.js';
import { exportJobEntity } from './entities/export-job.js';
import { feedbackEntity } from './entities/feedback.js';
import { productMilestoneEntity } from './entities/product-milestone.js';
import { idempotencyRecordEntity } from './entities/idempotency-record.js';
import { importErrorEntity, importJobEntity, importSlotEntity, importWarningEntity } from './entities/import-job.js';
import { leaseEntity, leaseHoldEntity, leasePoolFillEntity, leaseSlotEntity } from './entities/lease.js';
import { licenseEntity, licenseRefEntity } from './entities/license.js';
import { licenseExpiryEntity } from './entities/license-expiry.js';
import { licenseMailEntity } from './entities/license-mail.js';
import { licenseReminderEntity, renewalReminderSentEntity } from './entities/license-reminder.js';
import { mailEntity } from './entities/mail.js';
import { oauthStateEntity, userIdentityEntity } from './entities/oauth.js';
import { outboxPendingEntity } from './entities/outbox-pending.js';
import { installSketchEntity, overviewCountEntity } from './entities/overview-daily.js';
import { paymentProviderEntity } from './entities/payment-provider.js';
import { portalSessionEntity, portalSettingsEntity, portalSignInEntity } from './entities/portal.js';
import { planEntity, planSlugEntity } from './entities/plan.js';
import { productEntity, productPublicKeyEntity, productSlugEntity } from './entities/product.js';
import { productDailyEntity } from './entities/product-daily.js';
import { releaseEntity, releaseReadmeEntity, versionClaimEntity } from './entities/release.js';
import { sessionEntity } from './entities/session.js';
import { rateLimitEntity } from './entities/rate-limit.js';
import { invitationEntity, membershipEntity } from './entities/team.js';
import { knownDeviceEntity } from './entities/known-device.js';
import { stripeEventEntity, stripeRefEntity } from './entities/stripe-event.js';
import { trialClaimEntity } from './entities/trial-claim.js';
import { usageEventEntity } from './entities/usage-event.js';
import { deploymentAccountsEntity, userEmailEntity, userEntity } from './entities/user.js';
import { deliveryEntity, outboxEventEntity, webhookEntity } from './entities/webhook.js';

// In a bundle ElectroDB's requires of the SDK are answered by shared/platform/data/electrodb-sdk.cjs: filled here, before any entity exists,
// with the document commands ElectroDB sends (its `src/client.js` reads no others): the package's namespace would bring
// every one of its commands and the aggregated client into the bundle, and their schemas with them.
electroDbSdk.provide(
  { BatchGetCommand, BatchWriteCommand, DeleteCommand, GetCommand, PutCommand, QueryCommand, ScanCommand, TransactGetCommand, TransactWriteCommand, UpdateCommand },
  { unmarshall },
);

/** Every entity of the single table, by name. */
export const ENTITY_FACTORIES = {
  user: userEntity,
  userEmail: userEmailEntity,
  deploymentAccounts: deploymentAccountsEntity,
  session: sessionEntity,
  knownDevice: knownDeviceEntity,
  emailVerification: emailVerificationEntity,
  oauthState: oauthStateEntity,
  userIdentity: userIdentityEntity,
  apiKey: apiKeyEntity,
  product: productEntity,
  productSlug: productSlugEntity,
  productPublicKey: productPublicKeyEntity,
  plan: planEntity,
  planSlug: planSlugEntity,
  release: releaseEntity,
  license: licenseEntity,
  licenseRef: licenseRefEntity,
  licenseExpiry: licenseExpiryEntity,
  licenseReminder: licenseReminderEntity,
  renewalReminderSent: renewalReminderSentEntity,
  licenseMail: licenseMailEntity,
  mail: mailEntity,
  activation: activationEntity,
  activeDomain: activeDomainEntity,
  leaseSlot: leaseSlotEntity,
  leaseHold: leaseHoldEntity,
  leasePoolFill: leasePoolFillEntity,
  lease: leaseEntity,
  customer: customerEntity,
  customerEmail: customerEmailEntity,
  payment: paymentEntity,
  subscription: subscriptionEntity,
  webhook: webhookEntity,
  delivery: deliveryEntity,
  outboxEvent: outboxEventEntity,
  outboxPending: outboxPendingEntity,
  counter: counterEntity,
  rateLimit: rateLimitEntity,
  paymentProvider: paymentProviderEntity,
  checkoutSession: checkoutSessionEntity,
  stripeEvent: stripeEventEntity,
  stripeRef: stripeRefEntity,
  feedback: feedbackEntity,
  deactivationReason: deactivationReasonEntity,
  usageEvent: usageEventEntity,
  productDaily: productDailyEntity,
  productMilestone: productMilestoneEntity,
  overviewCount: overviewCountEntity,
  installSketch: installSketchEntity,
  idempotencyRecord: idempotencyRecordEntity,
  exportJob: exportJobEntity,
  importJob: importJobEntity,
  importError: importErrorEntity,
  importWarning: importWarningEntity,
  importSlot: importSlotEntity,
  releaseReadme: releaseReadmeEntity,
  versionClaim: versionClaimEntity,
  membership: membershipEntity,
  invitation: invitationEntity,
  auditEntry: auditEntryEntity,
  auditHead: auditHeadEntity,
  personalDataKey: personalDataKeyEntity,
  coupon: couponEntity,
  couponCode: couponCodeEntity,
  trialClaim: trialClaimEntity,
  accountSettings: accountSettingsEntity,
  composerVendor: composerVendorEntity,
  composerInstall: composerInstallEntity,
  portalSettings: portalSettingsEntity,
  portalSignIn: portalSignInEntity,
  portalSession: portalSessionEntity,
};

/** Each entity as ElectroDB builds it. */
export type EntityMap = { [Name in keyof typeof ENTITY_FACTORIES]: ReturnType<(typeof ENTITY_FACTORIES)[Name]> };

/** The document client ElectroDB sends through, over the table's client for it (shared/platform/clients.ts, `documents`). */
export function documentClient(documents: DynamoDBClient): DynamoDBDocumentClient {
  return DynamoDBDocumentClient.from(documents, { marshallOptions: { removeUndefinedValues: true } });
}

export { createWriteTransaction, GetCommand };
