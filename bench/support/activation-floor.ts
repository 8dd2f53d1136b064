/** Raw floors the edge benchmarks compare against: a low-level client with the SDK's defaults, and activate's own transaction. */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, type TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import { LOCAL_CREDENTIALS } from '../../shared/platform/clients.js';
import { createDataService } from '../../shared/platform/data/service.js';
import { newId } from '../../shared/platform/ids.js';
import { activationWrites } from '../../shared/licensing/operations/activate.js';
import { createProductCatalog } from '../../shared/licensing/operations/product-catalog.js';
import * as dataModel from '../../shared/platform/data/model.js';

/** A low-level client as anyone would make one: the SDK's defaults, the local endpoint. */
export const rawClient = () => new DynamoDBClient({ endpoint: process.env.DYNAMODB_ENDPOINT, region: 'us-east-1', credentials: LOCAL_CREDENTIALS });

/**
 * Activate's floor: the activation's own transaction (activation, domain item, seat, counters, event: the items of
 * `activationWrites`), built by ElectroDB, each on a new domain, to be sent raw through a document client.
 */
export async function activationTransactions(tableName: string, keys: string[]) {
  const client = DynamoDBDocumentClient.from(rawClient(), { marshallOptions: { removeUndefinedValues: true } });
  const data = createDataService(client, tableName, undefined, dataModel);
  const catalog = createProductCatalog({ data });
  const licenses = await Promise.all(keys.map(async (licenseKey) => (await data.reads.license.get({ licenseKey }, { consistent: true }))!));
  const product = (await catalog.byId(licenses[0]!.productId))!;
  let domain = 0;
  const next = (): TransactWriteCommandInput => {
    const license = licenses[domain % licenses.length]!;
    const now = new Date();
    const activation = {
      activationId: newId('act'), licenseId: license.licenseId, tenantId: license.tenantId, productId: license.productId,
      domain: `floor-${process.pid}-${domain++}.example.com`, ipAddress: '127.0.0.1', status: 'active' as const, environment: 'production' as const, activatedAt: now.toISOString(),
    };
    const params = data.transaction.write((tx) => Object.values(activationWrites(tx, license, product, activation, now)).flat().filter((item) => !!item)).params();
    // ElectroDB types its params loosely; they are the SDK's own input.
    return params as unknown as TransactWriteCommandInput;
  };
  return { client, next };
}

export type ActivationFloor = Awaited<ReturnType<typeof activationTransactions>>;
