import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DeadlineBoundHttpHandler } from './aws/deadline-http-handler.js';
import type { CoreConfig } from './config.js';
import { enforceKeyAccess } from './data/key-access-guard.js';
import type { TableKeyAccess } from './data/key-access.js';

/** Credentials for local stand-ins, which accept any. */
export const LOCAL_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

/**
 * How long one AWS call may take: each attempt is cut off after `requestTimeoutMs` (connecting included), and a call
 * makes `maxAttempts` at most. Its worst case, retries and backoff included, stays well under every function's
 * timeout (test/infra/request-budgets.test.ts). A request's calls together are held by its deadline
 * (shared/platform/deadline.ts): a dependency that hangs ends in the service's own quick 503 with its CORS headers,
 * never in a Lambda timeout that API Gateway would answer bare.
 */
export const AWS_CALL_LIMITS = { maxAttempts: 2, connectionTimeoutMs: 1000, requestTimeoutMs: 2000 } as const;

/**
 * What every AWS client of the service shares: the region, the call limits above, and the local endpoint with its
 * credentials when config has one. `throwOnRequestTimeout`: without it the SDK only logs a warning when
 * `requestTimeout` passes and waits on, for as long as the socket stays open.
 */
export function awsClientOptions(config: Pick<CoreConfig, 'region'>, endpoint: string | undefined) {
  return {
    region: config.region,
    maxAttempts: AWS_CALL_LIMITS.maxAttempts,
    requestHandler: new DeadlineBoundHttpHandler({
      connectionTimeout: AWS_CALL_LIMITS.connectionTimeoutMs,
      requestTimeout: AWS_CALL_LIMITS.requestTimeoutMs,
      throwOnRequestTimeout: true,
    }),
    ...(endpoint ? { endpoint, credentials: LOCAL_CREDENTIALS } : {}),
  };
}

/**
 * The table's two clients, built once per container. `table`: the low-level client, for the direct requests of the hot
 * paths (shared/platform/data/direct-requests.ts); it builds each command's middleware once (`cacheMiddleware`), not per request,
 * which takes about a fifth off a GetItem's CPU. `documents`: the client under the document client that ElectroDB
 * needs (the document client refuses `cacheMiddleware`), which the data model builds over it when it loads
 * (shared/platform/data/model.ts: the document client's module loads with it). Both share one connection pool.
 */
export type Clients = { documents: DynamoDBClient; table: DynamoDBClient };

/**
 * Two SDK middlewares do per-request work the table clients do not need, and go: the logger middleware copies every
 * request's input and every answer's output through its log filters for a log line, even on a client without a logger
 * (the SDK's default, and the service's), which writes nothing (about 2% of a GetItem's CPU); the user-agent middleware
 * rebuilds the `user-agent` and `x-amz-user-agent` headers on every request from the same sections, each escaped again
 * by regular expressions, and asks the retry strategy and credentials what to report (6–8% of a GetItem's CPU against
 * DynamoDB Local, measured alternately). DynamoDB needs neither header; the other clients keep both.
 */
function withoutPerRequestExtras(client: DynamoDBClient): DynamoDBClient {
  client.middlewareStack.remove('loggerMiddleware');
  client.middlewareStack.remove('getUserAgentMiddleware');
  return client;
}

/**
 * The table clients, the ones every function uses. Each function creates the other clients it needs itself
 * (`shared/platform/storage/`, `shared/messaging/webhooks/delivery-queue.ts`), so a bundle carries only the clients its function calls.
 * `keyAccess` is the function's share of the table (as the stack grants it): IAM holds it in AWS, and the table
 * clients themselves hold it locally.
 */
export function createClients(config: CoreConfig, keyAccess: TableKeyAccess): Clients {
  const options = awsClientOptions(config, config.endpoints.dynamodb);
  const table = withoutPerRequestExtras(new DynamoDBClient({ ...options, cacheMiddleware: true }));
  const documents = withoutPerRequestExtras(new DynamoDBClient(options));
  if (config.runtime === 'local' && keyAccess !== 'all') {
    enforceKeyAccess(table, keyAccess);
    enforceKeyAccess(documents, keyAccess);
  }
  return { documents, table };
}
