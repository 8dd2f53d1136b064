import { fromEnv } from '@aws-sdk/credential-provider-env';
import * as z from 'zod/mini';
import { checkHealth, queueDepth } from '../../shared/platform/health/index.js';
import { logger } from '../../shared/platform/observability/index.js';
import { createDownloadLinks } from '../../shared/platform/storage/index.js';
import { workerApp } from '../../shared/platform/workers/index.js';

const deadLetterQueues = z.record(z.string(), z.object({ url: z.url(), about: z.string() }));

/** What the check reads (no table: it only looks from the outside), checked as the module loads. */
const env = z
  .object({
    AWS_REGION: z._default(z.string(), 'us-east-1'),
    /** The front door (the stack sets it with one); unset: no front door to check. */
    RELEASE_FILES_URL: z.optional(z.url()),
    BUCKET_NAME: z.optional(z.string()),
    S3_ENDPOINT: z.optional(z.url()),
    SQS_ENDPOINT: z.optional(z.url()),
    /** `{"mail-dead-letters": {"url": "<queue URL>", "about": "…"}, …}`: each dead-letter queue, set by the stack. */
    HEALTH_CHECK_DEAD_LETTER_QUEUES: z._default(z.pipe(z.string(), z.transform((text) => deadLetterQueues.parse(JSON.parse(text)))), {}),
  })
  .parse(process.env);

const config = {
  region: env.AWS_REGION,
  bucketName: env.BUCKET_NAME,
  endpoints: { s3: env.S3_ENDPOINT, sqs: env.SQS_ENDPOINT },
  downloadLinks: { releaseFilesUrl: env.RELEASE_FILES_URL?.replace(/\/+$/, '') },
};
const messagesIn = queueDepth(config);
const frontDoor = config.downloadLinks.releaseFilesUrl ? { url: config.downloadLinks.releaseFilesUrl, links: createDownloadLinks(config, fromEnv()) } : undefined;

/**
 * The health check, run every 5 minutes by an EventBridge rule (infra/constructs/health-check.ts): it fails, with a
 * log line per problem, when something is wrong that no alarm of the stack's region sees; the failure is its alarm.
 */
export const handler = workerApp(async (): Promise<{ problems: number }> => {
  const problems = await checkHealth({ frontDoor, deadLetterQueues: env.HEALTH_CHECK_DEAD_LETTER_QUEUES, messagesIn, fetch });
  for (const problem of problems) logger.error('Health check', { problem });
  if (problems.length) throw new Error(`Health check: ${problems.join('; ')}`);
  return { problems: 0 };
});
