import {
  CopyObjectCommand,
  GetObjectCommand,
  GetObjectTaggingCommand,
  HeadObjectCommand,
  NoSuchKey,
  paginateListObjectsV2,
  PutObjectTaggingCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { BUILD_MANIFEST_KEY, DASHBOARD_ASSETS_DIR, RETIRED_TAG } from '../dashboard-headers.js';

type ManifestChunk = { file: string; css?: string[]; assets?: string[] };

/** Every file the build's manifest names, which are the assets the current `index.html` can ever ask for. */
export function currentAssets(manifest: Record<string, ManifestChunk>): Set<string> {
  return new Set(Object.values(manifest).flatMap((chunk) => [chunk.file, ...(chunk.css ?? []), ...(chunk.assets ?? [])]));
}

/**
 * After a deployment: every asset the new build no longer names is tagged retired, by copying it onto itself so that
 * the lifecycle rule's days count from now rather than from its first upload (an asset unchanged for months must
 * still outlive the deployment that retires it by the whole period). One named again (a rollback) loses the tag.
 * Without a manifest nothing is retired: better keep stale files than lose current ones.
 */
export async function retireStaleAssets(s3: S3Client, bucket: string): Promise<{ retired: string[]; restored: string[] }> {
  let manifest: Record<string, ManifestChunk>;
  try {
    const object = await s3.send(new GetObjectCommand({ Bucket: bucket, Key: BUILD_MANIFEST_KEY }));
    manifest = JSON.parse(await object.Body!.transformToString()) as Record<string, ManifestChunk>;
  } catch (error) {
    if (error instanceof NoSuchKey) return { retired: [], restored: [] };
    throw error;
  }
  const current = currentAssets(manifest);
  const retired: string[] = [];
  const restored: string[] = [];
  for await (const page of paginateListObjectsV2({ client: s3 }, { Bucket: bucket, Prefix: `${DASHBOARD_ASSETS_DIR}/` })) {
    for (const { Key: key } of page.Contents ?? []) {
      if (!key) continue;
      const { TagSet = [] } = await s3.send(new GetObjectTaggingCommand({ Bucket: bucket, Key: key }));
      const isRetired = TagSet.some((tag) => tag.Key === RETIRED_TAG.key && tag.Value === RETIRED_TAG.value);
      if (current.has(key) && isRetired) {
        await s3.send(new PutObjectTaggingCommand({ Bucket: bucket, Key: key, Tagging: { TagSet: [] } }));
        restored.push(key);
      } else if (!current.has(key) && !isRetired) {
        // A copy onto itself must change something besides tags: its metadata, restated as it was.
        const head = await s3.send(new HeadObjectCommand({ Bucket: bucket, Key: key }));
        await s3.send(
          new CopyObjectCommand({
            Bucket: bucket,
            Key: key,
            CopySource: `${bucket}/${key.split('/').map(encodeURIComponent).join('/')}`,
            MetadataDirective: 'REPLACE',
            ContentType: head.ContentType,
            CacheControl: head.CacheControl,
            Metadata: head.Metadata,
            TaggingDirective: 'REPLACE',
            Tagging: `${RETIRED_TAG.key}=${RETIRED_TAG.value}`,
          }),
        );
        retired.push(key);
      }
    }
  }
  return { retired, restored };
}

/** Tells CloudFormation how the custom resource went (its pre-signed response URL); it waits for nothing else. */
async function respond(event: CloudFormationCustomResourceEvent, status: 'SUCCESS' | 'FAILED', reason: string): Promise<void> {
  const body = JSON.stringify({
    Status: status,
    Reason: reason.slice(0, 1000),
    PhysicalResourceId: `${event.ResourceProperties.BucketName as string}-asset-retirement`,
    StackId: event.StackId,
    RequestId: event.RequestId,
    LogicalResourceId: event.LogicalResourceId,
  });
  await fetch(event.ResponseURL, { method: 'PUT', body, headers: { 'content-type': '' } });
}

const s3 = new S3Client({});

/** The custom resource after each dashboard deployment (`infra/constructs/dashboard-asset-retirement.ts`). */
export async function handler(event: CloudFormationCustomResourceEvent): Promise<void> {
  try {
    const outcome = event.RequestType === 'Delete' ? undefined : await retireStaleAssets(s3, event.ResourceProperties.BucketName as string);
    console.log(JSON.stringify({ message: 'Dashboard assets', requestType: event.RequestType, ...outcome }));
    await respond(event, 'SUCCESS', 'ok');
  } catch (error) {
    console.error(error);
    await respond(event, 'FAILED', error instanceof Error ? error.message : String(error));
  }
}
