import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Service } from 'electrodb';
import { activationEntity, activeDomainEntity } from './entities/activation.js';
import { apiKeyEntity } from './entities/api-key.js';
import { paymentEntity, subscriptionEntity } from './entities/billing.js';
import { counterEntity } from './entities/counter.js';
import { customerEmailEntity, customerEntity } from './entities/customer.js';
import { licenseEntity, licenseRefEntity } from './entities/license.js';
import { licenseExpiryEntity } from './entities/license-expiry.js';
import { planEntity, planSlugEntity } from './entities/plan.js';
import { productEntity, productPublicKeyEntity, productSlugEntity } from './entities/product.js';
import { releaseEntity } from './entities/release.js';
import { sessionEntity } from './entities/session.js';
import { rateLimitEntity } from './entities/rate-limit.js';
import { userEmailEntity, userEntity } from './entities/user.js';
import { deliveryEntity, outboxEventEntity, webhookEntity } from './entities/webhook.js';

/** Every entity of the single table, bound to one client and table name. */
export function createDataService(client: DynamoDBDocumentClient, table: string) {
  return new Service(
    {
      user: userEntity(),
      userEmail: userEmailEntity(),
      session: sessionEntity(),
      apiKey: apiKeyEntity(),
      product: productEntity(),
      productSlug: productSlugEntity(),
      productPublicKey: productPublicKeyEntity(),
      plan: planEntity(),
      planSlug: planSlugEntity(),
      release: releaseEntity(),
      license: licenseEntity(),
      licenseRef: licenseRefEntity(),
      licenseExpiry: licenseExpiryEntity(),
      activation: activationEntity(),
      activeDomain: activeDomainEntity(),
      customer: customerEntity(),
      customerEmail: customerEmailEntity(),
      payment: paymentEntity(),
      subscription: subscriptionEntity(),
      webhook: webhookEntity(),
      delivery: deliveryEntity(),
      outboxEvent: outboxEventEntity(),
      counter: counterEntity(),
      rateLimit: rateLimitEntity(),
    },
    { client, table },
  );
}

export type DataService = ReturnType<typeof createDataService>;
export type Entities = DataService['entities'];

/** An item of an entity as its reads return it. */
export type EntityItem<E extends keyof Entities> = NonNullable<Awaited<ReturnType<ReturnType<Entities[E]['get']>['go']>>['data']>;

/** The entities as a `transaction.write` callback receives them: their operations end in `.commit()`. */
export type TransactionEntities = Parameters<Parameters<DataService['transaction']['write']>[0]>[0];
