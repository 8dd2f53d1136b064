import { CompleteMultipartUploadCommand, CreateMultipartUploadCommand, GetObjectCommand, S3Client, UploadPartCommand } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startObjectStore, type ObjectStore } from '../../../infra/local/object-store.js';
import { freePort } from '../../../infra/local/ports.js';

const BUCKET = 'object-store-test';
let objects: ObjectStore;
let s3: S3Client;

beforeAll(async () => {
  objects = await startObjectStore({ buckets: [BUCKET], port: await freePort() });
  s3 = new S3Client({ endpoint: objects.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
});
afterAll(() => objects?.stop());

async function uploadWithOnePart(key: string) {
  const { UploadId } = await s3.send(new CreateMultipartUploadCommand({ Bucket: BUCKET, Key: key }));
  const { ETag } = await s3.send(new UploadPartCommand({ Bucket: BUCKET, Key: key, UploadId, PartNumber: 1, Body: 'one part' }));
  return { UploadId: UploadId!, ETag: ETag! };
}
const complete = (key: string, uploadId: string, parts: { ETag: string; PartNumber: number }[]) =>
  s3.send(new CompleteMultipartUploadCommand({ Bucket: BUCKET, Key: key, UploadId: uploadId, MultipartUpload: { Parts: parts } }));

describe('the local S3 stand-in', () => {
  it('completes an upload once: a second completion racing it is NoSuchUpload, as S3 answers, and the store lives on', async () => {
    const { UploadId, ETag } = await uploadWithOnePart('raced');
    const outcomes = await Promise.allSettled([complete('raced', UploadId, [{ ETag, PartNumber: 1 }]), complete('raced', UploadId, [{ ETag, PartNumber: 1 }])]);
    expect(outcomes.map((outcome) => outcome.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((outcomes.find((outcome) => outcome.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({ name: 'NoSuchUpload' });
    const object = await s3.send(new GetObjectCommand({ Bucket: BUCKET, Key: 'raced' }));
    expect(await object.Body!.transformToString()).toBe('one part');
  });

  it('refuses a completion naming a part never uploaded with InvalidPart', async () => {
    const { UploadId, ETag } = await uploadWithOnePart('missing-part');
    await expect(complete('missing-part', UploadId, [{ ETag, PartNumber: 1 }, { ETag, PartNumber: 2 }])).rejects.toMatchObject({ name: 'InvalidPart' });
    await complete('missing-part', UploadId, [{ ETag, PartNumber: 1 }]);
  });
});
