import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { createWriteTransaction, type EntityItem as ElectroEntityItem, type Service } from 'electrodb';
import { activationEntity, activeDomainEntity } from './entities/activation.js';
import { apiKeyEntity } from './entities/api-key.js';
import { paymentEntity, subscriptionEntity } from './entities/billing.js';
import { checkoutSessionEntity } from './entities/checkout-session.js';
import { counterEntity } from './entities/counter.js';
import { customerEmailEntity, customerEntity } from './entities/customer.js';
import { deactivationReasonEntity } from './entities/deactivation-reason.js';
import { feedbackEntity } from './entities/feedback.js';
import { idempotencyRecordEntity } from './entities/idempotency-record.js';
import { importErrorEntity, importJobEntity } from './entities/import-job.js';
import { licenseEntity, licenseRefEntity } from './entities/license.js';
import { licenseExpiryEntity } from './entities/license-expiry.js';
import { licenseMailEntity } from './entities/license-mail.js';
import { oauthStateEntity, userIdentityEntity } from './entities/oauth.js';
import { outboxPendingEntity } from './entities/outbox-pending.js';
import { paymentProviderEntity } from './entities/payment-provider.js';
import { planEntity, planSlugEntity } from './entities/plan.js';
import { productEntity, productPublicKeyEntity, productSlugEntity } from './entities/product.js';
import { productDailyEntity } from './entities/product-daily.js';
import { releaseEntity } from './entities/release.js';
import { sessionEntity } from './entities/session.js';
import { rateLimitEntity } from './entities/rate-limit.js';
import { stripeEventEntity, stripeRefEntity } from './entities/stripe-event.js';
import { usageEventEntity } from './entities/usage-event.js';
import { userEmailEntity, userEntity } from './entities/user.js';
import { deliveryEntity, outboxEventEntity, webhookEntity } from './entities/webhook.js';

/** Every entity of the single table, by name. */
export const ENTITY_FACTORIES = {
  user: userEntity,
  userEmail: userEmailEntity,
  session: sessionEntity,
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
  licenseMail: licenseMailEntity,
  activation: activationEntity,
  activeDomain: activeDomainEntity,
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
  idempotencyRecord: idempotencyRecordEntity,
  importJob: importJobEntity,
  importError: importErrorEntity,
};

type EntityMap = { [Name in keyof typeof ENTITY_FACTORIES]: ReturnType<(typeof ENTITY_FACTORIES)[Name]> };

/** The entities as one ElectroDB service would hold them (test/unit/data-service.test.ts builds that service). */
type ElectroService = Service<EntityMap>;

/** The table's entities and write transactions over them: the part of an ElectroDB service the code uses. */
export type DataService = {
  entities: ElectroService['entities'];
  transaction: { write: ElectroService['transaction']['write'] };
};

/**
 * Every entity of the single table, bound to one client and table name. Each entity is built the first
 * time it is used: ElectroDB checks an entity's model against a JSON schema when it builds it, a few
 * milliseconds apiece, and a function uses a third of them (the edge's cold start was mostly this).
 * A transaction hands ElectroDB only the entities it names, so it builds no others.
 */
export function createDataService(client: DynamoDBDocumentClient, table: string): DataService {
  const built: Partial<EntityMap> = {};
  const entities = {} as EntityMap;
  for (const name of Object.keys(ENTITY_FACTORIES) as (keyof EntityMap)[]) {
    Object.defineProperty(entities, name, {
      enumerable: true,
      get: () => {
        if (!built[name]) {
          const entity = ENTITY_FACTORIES[name]();
          entity.setClient(client);
          entity.setTableName(table);
          (built as Record<string, unknown>)[name] = entity;
        }
        return built[name];
      },
    });
  }
  return {
    entities,
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
