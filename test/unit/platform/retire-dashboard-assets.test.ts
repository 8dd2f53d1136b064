import {
  CopyObjectCommand,
  GetObjectCommand,
  GetObjectTaggingCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  NoSuchKey,
  PutObjectTaggingCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { retireStaleAssets } from '../../../infra/handlers/retire-dashboard-assets.js';

const s3 = mockClient(S3Client);
const BUCKET = 'dashboard-bucket';
const manifest = {
  'index.html': { file: 'assets/index-new.js', css: ['assets/index-new.css'], assets: ['assets/logo-1.svg'] },
};
const retiredTags = [{ Key: 'retired', Value: 'true' }];

/** A bucket holding these assets, each with its tags, and this manifest (`null`: the manifest is missing). */
function bucketWith(objects: Record<string, { Key: string; Value: string }[]>, current: object | null = manifest) {
  s3.on(GetObjectCommand, { Key: '.vite/manifest.json' }).callsFake(() => {
    if (!current) throw new NoSuchKey({ message: 'The specified key does not exist.', $metadata: {} });
    // The part of the SDK's stream body that the handler reads.
    return { Body: { transformToString: async () => JSON.stringify(current) } as never };
  });
  s3.on(ListObjectsV2Command).resolves({ Contents: Object.keys(objects).map((Key) => ({ Key })) });
  for (const [Key, TagSet] of Object.entries(objects)) s3.on(GetObjectTaggingCommand, { Key }).resolves({ TagSet });
  s3.on(HeadObjectCommand).resolves({ ContentType: 'text/javascript', CacheControl: 'public, max-age=31536000, immutable', Metadata: {} });
}

beforeEach(() => s3.reset());
// The worker goes on to other files (isolate: false): S3's real send comes back.
afterAll(() => s3.restore());

describe('retiring dashboard assets after a deployment', () => {
  it('tags what the new build no longer names, by a copy onto itself that keeps its type and caching and restarts its age', async () => {
    bucketWith({ 'assets/index-new.js': [], 'assets/index-new.css': [], 'assets/logo-1.svg': [], 'assets/index-old.js': [], 'assets/index-older.js': retiredTags });
    expect(await retireStaleAssets(new S3Client({}), BUCKET)).toEqual({ retired: ['assets/index-old.js'], restored: [] });
    const copies = s3.commandCalls(CopyObjectCommand).map((call) => call.args[0].input);
    expect(copies).toEqual([
      {
        Bucket: BUCKET,
        Key: 'assets/index-old.js',
        CopySource: `${BUCKET}/assets/index-old.js`,
        MetadataDirective: 'REPLACE',
        ContentType: 'text/javascript',
        CacheControl: 'public, max-age=31536000, immutable',
        Metadata: {},
        TaggingDirective: 'REPLACE',
        Tagging: 'retired=true',
      },
    ]);
    expect(s3.commandCalls(ListObjectsV2Command)[0]!.args[0].input).toMatchObject({ Bucket: BUCKET, Prefix: 'assets/' });
  });

  it('takes the tag off an asset the build names again (a rollback), so it does not expire while in use', async () => {
    bucketWith({ 'assets/index-new.js': retiredTags, 'assets/index-new.css': [], 'assets/logo-1.svg': [] });
    expect(await retireStaleAssets(new S3Client({}), BUCKET)).toEqual({ retired: [], restored: ['assets/index-new.js'] });
    expect(s3.commandCalls(PutObjectTaggingCommand).map((call) => call.args[0].input)).toEqual([{ Bucket: BUCKET, Key: 'assets/index-new.js', Tagging: { TagSet: [] } }]);
    expect(s3.commandCalls(CopyObjectCommand)).toEqual([]);
  });

  it('retires nothing without the build’s manifest: a stale file kept is better than a current one lost', async () => {
    bucketWith({ 'assets/index-new.js': [], 'assets/index-old.js': [] }, null);
    expect(await retireStaleAssets(new S3Client({}), BUCKET)).toEqual({ retired: [], restored: [] });
    expect(s3.commandCalls(CopyObjectCommand)).toEqual([]);
    expect(s3.commandCalls(ListObjectsV2Command)).toEqual([]);
  });
});
