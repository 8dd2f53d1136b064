import { RELEASE_FILES_PATH, type DownloadLinks } from '../storage/download-links.js';

/** The release-file key the check asks the front door for: under the release files' root, and never a file's. */
export const RELEASE_PROBE_KEY = `${RELEASE_FILES_PATH.slice(1)}/health-check/probe.zip`;

export type HealthCheckDeps = {
  /** With a front door: its address, and the presigner of release files (the edge's, with the check's own role). */
  frontDoor?: { url: string; links: DownloadLinks };
  /** Each dead-letter queue by name (`mail-dead-letters`), with what a message in it means; and how many it holds now. */
  deadLetterQueues: Record<string, { url: string; about: string }>;
  messagesIn: (queueUrl: string) => Promise<number>;
  fetch: typeof fetch;
};

/** How long one probe may take: well inside the check's timeout, and far beyond a healthy answer. */
const PROBE_TIMEOUT_MS = 10_000;

/**
 * What an operator would want to hear of and no metric of the stack's region tells (docs/observability.md,
 * "The health check"), checked from the outside as a plugin would meet it:
 * - the front door answers `/health` through CloudFront, which needs its origin secret to be one the functions accept
 *   (a 403 here is a rotation gone wrong) and the API reachable (a 502 or 504 is CloudFront failing to reach it);
 * - the front door passes a presigned release URL to the bucket and S3 takes the signature: S3 answers 404 for the
 *   probe's key, which is never a file (403: S3 refused it, so every download fails);
 * - no dead-letter queue holds a message: a delivery, an e-mail, usage events, an export or an import gave up.
 * CloudFront's own metrics live in us-east-1, where this stack's alarms cannot see them. Returns what is wrong.
 */
export async function checkHealth(deps: HealthCheckDeps): Promise<string[]> {
  const problems: string[] = [];
  const probe = async (what: string, url: string, expected: number) => {
    try {
      const answer = await deps.fetch(url, { redirect: 'manual', signal: AbortSignal.timeout(PROBE_TIMEOUT_MS) });
      await answer.body?.cancel();
      if (answer.status !== expected) problems.push(`${what} answered ${answer.status}, not ${expected}`);
    } catch (error) {
      problems.push(`${what} failed: ${(error as Error).message}`);
    }
  };
  if (deps.frontDoor) {
    const { url, links } = deps.frontDoor;
    await probe(`The front door's /health (${url})`, `${url}/health`, 200);
    await probe('A presigned release URL through the front door', await links.presign(RELEASE_PROBE_KEY, 'probe.zip', 60), 404);
  }
  for (const [name, { url, about }] of Object.entries(deps.deadLetterQueues)) {
    const messages = await deps.messagesIn(url);
    if (messages > 0) problems.push(`${name}: ${messages} message${messages === 1 ? '' : 's'}. ${about}`);
  }
  return problems;
}
