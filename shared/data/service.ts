import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Service } from 'electrodb';
import { apiKeyEntity } from './entities/api-key.js';
import { counterEntity } from './entities/counter.js';
import { productEntity, productPublicKeyEntity, productSlugEntity } from './entities/product.js';
import { sessionEntity } from './entities/session.js';
import { loginThrottleEntity, userEmailEntity, userEntity } from './entities/user.js';

/** Every entity of the single table, bound to one client and table name. */
export function createDataService(client: DynamoDBDocumentClient, table: string) {
  return new Service(
    {
      user: userEntity(),
      userEmail: userEmailEntity(),
      loginThrottle: loginThrottleEntity(),
      session: sessionEntity(),
      apiKey: apiKeyEntity(),
      product: productEntity(),
      productSlug: productSlugEntity(),
      productPublicKey: productPublicKeyEntity(),
      counter: counterEntity(),
    },
    { client, table },
  );
}

export type DataService = ReturnType<typeof createDataService>;
export type Entities = DataService['entities'];
