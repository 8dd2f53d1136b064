import { mkdirSync } from 'node:fs';
import type { Server } from 'node:http';
import { join, resolve } from 'node:path';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { HANDLER_ENTRIES, ROUTES, SERVICE_PATH_PREFIXES, SURFACE_TIMEOUT_SECONDS, SURFACES, type Surface } from '../routes.js';
import { ensureTable } from './create-table.js';
import { startDynamoDbLocal } from './dynamodb-local.js';
import { importFunctionEntry } from './function-entry.js';
import { DASHBOARD_DIST } from '../dashboard-build.js';
import { dashboardFiles } from './dashboard-files.js';
import { createGateway, type LambdaHandler } from './gateway.js';
import { startMailServer } from './mail-server.js';
import { startObjectStore } from './object-store.js';
import { freePort } from './ports.js';
import { localDownloadLinkKey, localProviderKey } from './provider-key.js';
import { releaseFilesProxy } from './release-files-proxy.js';
import { startScheduler } from './scheduler.js';
import { startOutboxPipeline } from './outbox-pipeline.js';

// Lambda runs Node 22; the SDK's notice about older local Node versions is only noise here.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

const TABLE_NAME = 'licensing';
/** Where the local-only routes live. */
const LOCAL_ROUTES_PREFIX = '/_local';
const BUCKET_NAME = 'licensing-releases';
const EXPORT_BUCKET_NAME = 'licensing-exports';

let stacksStarted = 0;

export type LocalStackOptions = {
  /** Gateway port; 0 picks a free one. */
  port: number;
  /** Where the table, objects and mail live; `:memory:` keeps nothing. */
  dataDir: string;
  /** Extra environment for the functions (e.g. DASHBOARD_URL); the process environment is the default. */
  env?: Record<string, string | undefined>;
  /**
   * Behave as the stack's front door (CloudFront) does in AWS: the gateway sends this secret with every request and
   * the functions refuse a request without it, and release files are fetched through the gateway's `/releases/…`.
   * Unset: the API alone, as a deployment with `dashboard=false`.
   */
  originVerifyToken?: string;
  /** DynamoDB Local on a JVM that starts and serves a test's requests with the least CPU (dynamodb-local.ts). */
  lightJvm?: boolean;
  /**
   * The HTTP functions' timeouts (`SURFACE_TIMEOUT_SECONDS`, as in AWS) times this: a test of what runs out of time
   * shortens them. @default 1
   */
  timeoutScale?: number;
};

export type LocalStack = { url: string; port: number; stop: () => Promise<void> };

/** Starts the whole service on this machine: DynamoDB Local, S3 and SES stand-ins, and the gateway. */
export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const inMemory = options.dataDir === ':memory:';
  const dataDir = inMemory ? undefined : resolve(options.dataDir);
  if (dataDir) mkdirSync(dataDir, { recursive: true });
  const port = options.port || (await freePort());
  const stops: (() => Promise<void>)[] = [];
  const stop = async () => {
    for (const step of stops.reverse()) await step().catch((error) => console.error('local stack: stop failed', error));
  };
  try {
    const dynamo = await startDynamoDbLocal({ dbPath: dataDir && join(dataDir, 'dynamodb'), lightJvm: options.lightJvm });
    stops.push(dynamo.stop);
    const objects = await startObjectStore({ directory: dataDir && join(dataDir, 's3'), buckets: [BUCKET_NAME, EXPORT_BUCKET_NAME], port: await freePort() });
    stops.push(objects.stop);
    const mail = await startMailServer({ port: await freePort(), file: dataDir && join(dataDir, 'mail.json') });
    stops.push(mail.stop);

    const client = new DynamoDBClient({ endpoint: dynamo.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    await ensureTable(client, TABLE_NAME);
    client.destroy();
    const instance = ++stacksStarted;
    const outbox = await startOutboxPipeline({ dataDir, dynamoEndpoint: dynamo.endpoint, tableName: TABLE_NAME, instance });
    stops.push(outbox.stop);

    const baseUrl = `http://localhost:${port}`;
    // A stack without a front door must not inherit one from an earlier stack of this process (or its parent's).
    if (!options.originVerifyToken) for (const name of ['ORIGIN_VERIFY_TOKEN', 'RELEASE_FILES_URL']) delete process.env[name];
    // Functions read their configuration from the environment when their module loads, as in Lambda.
    Object.assign(process.env, {
      RUNTIME: 'local',
      AWS_REGION: process.env.AWS_REGION ?? 'us-east-1',
      AWS_ACCESS_KEY_ID: 'local',
      AWS_SECRET_ACCESS_KEY: 'local',
      TABLE_NAME,
      BUCKET_NAME,
      EXPORT_BUCKET_NAME,
      DYNAMODB_ENDPOINT: dynamo.endpoint,
      S3_ENDPOINT: objects.endpoint,
      SES_ENDPOINT: mail.endpoint,
      PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL ?? baseUrl,
      LOCAL_PROVIDER_KEY: localProviderKey(dataDir),
      LOCAL_DOWNLOAD_LINK_KEY: localDownloadLinkKey(dataDir),
      ...(options.originVerifyToken && { ORIGIN_VERIFY_TOKEN: options.originVerifyToken, RELEASE_FILES_URL: baseUrl }),
      // Logs pretty-printed and quiet (LOG_LEVEL, default WARN), no metrics per request; what the caller set wins.
      POWERTOOLS_DEV: process.env.POWERTOOLS_DEV ?? 'true',
      POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? process.env.LOG_LEVEL ?? 'WARN',
      POWERTOOLS_METRICS_DISABLED: process.env.POWERTOOLS_METRICS_DISABLED ?? 'true',
      POWERTOOLS_SERVICE_NAME: process.env.POWERTOOLS_SERVICE_NAME ?? 'licensing-service',
      ...outbox.env,
      ...options.env,
    });
    const handlers = {} as Record<Surface, LambdaHandler>;
    for (const surface of SURFACES) {
      handlers[surface] = (await importFunctionEntry<{ handler: LambdaHandler }>(HANDLER_ENTRIES[surface], instance)).handler;
    }
    const scheduler = await startScheduler(instance, process.env);
    stops.push(scheduler.stop);
    await outbox.run();

    const localRoutes = {
      [`${LOCAL_ROUTES_PREFIX}/mail`]: () => ({ emails: mail.sent() }),
      [`${LOCAL_ROUTES_PREFIX}/webhook-queue`]: outbox.webhookQueueState,
      [`${LOCAL_ROUTES_PREFIX}/mail-queue`]: outbox.mailQueueState,
      [`${LOCAL_ROUTES_PREFIX}/usage-queue`]: outbox.usageQueueState,
    };
    // Everything under the service's own first path segments (and `/_local`) is the service's; the rest is the dashboard's.
    const dashboard = dashboardFiles({
      directory: DASHBOARD_DIST,
      reservedPrefixes: [...SERVICE_PATH_PREFIXES, LOCAL_ROUTES_PREFIX],
      uploadOrigin: objects.endpoint,
    });
    const releaseFiles = options.originVerifyToken ? releaseFilesProxy({ objectStoreEndpoint: objects.endpoint, bucket: BUCKET_NAME }) : undefined;
    const timeoutSeconds = Object.fromEntries(SURFACES.map((surface) => [surface, SURFACE_TIMEOUT_SECONDS[surface] * (options.timeoutScale ?? 1)])) as Record<Surface, number>;
    const gateway = createGateway({ routes: ROUTES, handlers, localRoutes, dashboard, originVerifyToken: options.originVerifyToken, releaseFiles, timeoutSeconds });
    await new Promise<void>((resolveListen, reject) => {
      gateway.once('error', reject);
      gateway.listen(port, resolveListen);
    });
    stops.push(() => closeServer(gateway));
    return { url: baseUrl, port, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolveClose) => {
    server.close(() => resolveClose());
    server.closeAllConnections();
  });
}
