import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createWriteTransaction, type EntityItem as ElectroEntityItem, type Service } from 'electrodb';
import { activationEntity, activeDomainEntity } from './entities/activation.js';
import { apiKeyEntity } from './entities/api-key.js';
import { auditEntryEntity, auditHeadEntity, personalDataKeyEntity } from './entities/audit.js';
import { paymentEntity, subscriptionEntity } from './entities/billing.js';
import { checkoutSessionEntity } from './entities/checkout-session.js';
import { couponCodeEntity, couponEntity } from './entities/coupon.js';
import { counterEntity } from './entities/counter.js';
import { customerEmailEntity, customerEntity } from './entities/customer.js';
import { deactivationReasonEntity } from './entities/deactivation-reason.js';
import { emailVerificationEntity } from './entities/email-verification.js';
import { exportJobEntity } from './entities/export-job.js';
import { feedbackEntity } from './entities/feedback.js';
import { idempotencyRecordEntity } from './entities/idempotency-record.js';
import { importErrorEntity, importJobEntity } from './entities/import-job.js';
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
import { planEntity, planSlugEntity } from './entities/plan.js';
import { productEntity, productPublicKeyEntity, productSlugEntity } from './entities/product.js';
import { productDailyEntity } from './entities/product-daily.js';
import { releaseEntity, releaseReadmeEntity } from './entities/release.js';
import { sessionEntity } from './entities/session.js';
import { rateLimitEntity } from './entities/rate-limit.js';
import { invitationEntity, membershipEntity } from './entities/team.js';
import { stripeEventEntity, stripeRefEntity } from './entities/stripe-event.js';
import { trialClaimEntity } from './entities/trial-claim.js';
import { usageEventEntity } from './entities/usage-event.js';
import { userEmailEntity, userEntity } from './entities/user.js';
import { deliveryEntity, outboxEventEntity, webhookEntity } from './entities/webhook.js';
import { itemReader, preparedUpdate, type CommandSender, type ItemReader, type ValueKinds, type ValuesOf } from './direct-requests.js';

/** Every entity of the single table, by name. */
export const ENTITY_FACTORIES = {
  user: userEntity,
  userEmail: userEmailEntity,
  session: sessionEntity,
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
  overviewCount: overviewCountEntity,
  installSketch: installSketchEntity,
  idempotencyRecord: idempotencyRecordEntity,
  exportJob: exportJobEntity,
  importJob: importJobEntity,
  importError: importErrorEntity,
  releaseReadme: releaseReadmeEntity,
  membership: membershipEntity,
  invitation: invitationEntity,
  auditEntry: auditEntryEntity,
  auditHead: auditHeadEntity,
  personalDataKey: personalDataKeyEntity,
  coupon: couponEntity,
  couponCode: couponCodeEntity,
  trialClaim: trialClaimEntity,
};

type EntityMap = { [Name in keyof typeof ENTITY_FACTORIES]: ReturnType<(typeof ENTITY_FACTORIES)[Name]> };

/** The entities as one ElectroDB service would hold them (test/unit/data-service.test.ts builds that service). */
type ElectroService = Service<EntityMap>;

/** The table's entities and write transactions over them (the part of an ElectroDB service the code uses), and direct reads. */
export type DataService = {
  entities: ElectroService['entities'];
  transaction: { write: ElectroService['transaction']['write'] };
  /** Each entity's items by primary key in one direct GetItem (shared/data/direct-requests.ts): for the hot reads. */
  reads: { [Name in keyof EntityMap]: ItemReader<EntityMap[Name]> };
  /** An UpdateItem that ElectroDB builds once, sent directly with each call's values: for the hot writes. */
  prepareUpdate: <const K extends ValueKinds>(kinds: K, build: (values: ValuesOf<K>) => object) => (values: ValuesOf<K>) => Promise<unknown>;
  /** An item as stored, by its table key (`pk`, `sk`), read consistently: the audit log's view of an item before a change. */
  storedItem: (key: Record<string, unknown>) => Promise<Record<string, unknown> | undefined>;
};

/** An object whose properties are built the first time each is read. */
function lazily<T extends object>(names: (keyof T)[], build: (name: keyof T) => T[keyof T]): T {
  const built: Partial<T> = {};
  const lazy = {} as T;
  for (const name of names) {
    Object.defineProperty(lazy, name, { enumerable: true, get: () => (built[name] ??= build(name)) });
  }
  return lazy;
}

/**
 * Every entity of the single table, bound to one client and table name. Each entity is built the first
 * time it is used: ElectroDB checks an entity's model against a JSON schema when it builds it, a few
 * milliseconds apiece, and a function uses a third of them (the edge's cold start was mostly this).
 * A transaction hands ElectroDB only the entities it names, so it builds no others. Direct requests go through
 * `tableClient`, the low-level client (by default `client` itself, which sends them as they are).
 */
export function createDataService(client: DynamoDBDocumentClient, table: string, tableClient: CommandSender = client): DataService {
  const names = Object.keys(ENTITY_FACTORIES) as (keyof EntityMap)[];
  const entities = lazily<EntityMap>(names, (name) => {
    const entity = ENTITY_FACTORIES[name]();
    entity.setClient(client);
    entity.setTableName(table);
    return entity as EntityMap[typeof name];
  });
  return {
    entities,
    reads: lazily<DataService['reads']>(names, (name) => itemReader(entities[name], tableClient) as DataService['reads'][typeof name]),
    prepareUpdate: (kinds, build) => preparedUpdate(tableClient, kinds, build),
    storedItem: async (key) => (await client.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }))).Item,
    transaction: {
      write: ((build: (tx: EntityMap) => unknown[]) => {
        const named: Partial<EntityMap> = {};
        const items = build(new Proxy(entities, { get: (target, name: keyof EntityMap) => ((named as Record<string, unknown>)[name] = target[name]) }));
        return createWriteTransaction(named as EntityMap, () => items as never);
      }) as unknown as ElectroService['transaction']['write'],
    },
  };
}

export type Entities = DataService['entities'];

/** An item of an entity as its reads return it. */
export type EntityItem<E extends keyof Entities> = ElectroEntityItem<Entities[E]>;

/** The entities as a `transaction.write` callback receives them: their operations end in `.commit()`. */
export type TransactionEntities = Parameters<Parameters<DataService['transaction']['write']>[0]>[0];
