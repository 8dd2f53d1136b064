import { existsSync, mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// s3rver is CommonJS without types: a local S3 stand-in that honours presigned URLs.
import S3rver, { type FilesystemStore } from 's3rver';

// s3rver knows only its built-in `S3RVER` key; the functions sign with the key every local stand-in accepts.
const s3rverAccounts = createRequire(import.meta.url)('s3rver/lib/models/account.js') as {
  DUMMY_ACCOUNT: { createKeyPair: (accessKeyId: string, secretAccessKey: string) => void };
};
s3rverAccounts.DUMMY_ACCOUNT.createKeyPair('local', 'local');
const S3Error = createRequire(import.meta.url)('s3rver/lib/models/error.js') as new (code: string, message: string) => Error;

export type ObjectStore = { endpoint: string; stop: () => Promise<void> };

/**
 * The bucket's CORS rule, as the stack gives the release bucket without `dashboardUrl` (infra/constructs/release-bucket.ts):
 * the dashboard, on another origin than this stand-in, PUTs large release files to presigned URLs.
 */
const CORS = `<CORSConfiguration><CORSRule>
  <AllowedOrigin>*</AllowedOrigin>
  <AllowedMethod>PUT</AllowedMethod><AllowedMethod>GET</AllowedMethod><AllowedMethod>HEAD</AllowedMethod>
  <AllowedHeader>*</AllowedHeader><ExposeHeader>ETag</ExposeHeader><MaxAgeSeconds>3600</MaxAgeSeconds>
</CORSRule></CORSConfiguration>`;

/** A local S3 with the service's buckets (releases, exports), keeping objects under `directory` (a temporary one when none). */
export async function startObjectStore(options: { directory?: string; buckets: string[]; port: number }): Promise<ObjectStore> {
  const directory = options.directory ?? mkdtempSync(join(tmpdir(), 'licensing-s3-'));
  mkdirSync(directory, { recursive: true });
  const server = new S3rver({
    port: options.port,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: options.buckets.map((name) => ({ name, configs: [CORS] })),
  });
  completeUploadsAsS3Does(server.store);
  await server.run();
  return {
    endpoint: `http://127.0.0.1:${options.port}`,
    stop: async () => {
      await server.close();
      if (!options.directory) rmSync(directory, { recursive: true, force: true });
    },
  };
}

/**
 * s3rver completes a multipart upload by streaming its part files with no error handler: a second completion of one
 * upload (two workers racing) or a part never uploaded ends the whole process. S3 answers those NoSuchUpload and
 * InvalidPart: so does this, one completion of an upload at a time.
 */
function completeUploadsAsS3Does(store: FilesystemStore): void {
  const complete = store.putObjectMultipart.bind(store);
  const running = new Map<string, Promise<unknown>>();
  store.putObjectMultipart = async (bucket, uploadId, parts) => {
    const before = running.get(uploadId) ?? Promise.resolve();
    const completion = before.catch(() => undefined).then(() => {
      const uploadDir = join(store.getResourcePath(bucket, undefined, 'uploads'), uploadId);
      if (!existsSync(join(uploadDir, 'key'))) throw new S3Error('NoSuchUpload', 'The specified upload does not exist.');
      if (parts.some((part) => !existsSync(join(uploadDir, String(part.number))))) {
        throw new S3Error('InvalidPart', 'One or more of the specified parts could not be found.');
      }
      return complete(bucket, uploadId, parts);
    });
    running.set(uploadId, completion);
    try {
      return await completion;
    } finally {
      if (running.get(uploadId) === completion) running.delete(uploadId);
    }
  };
}
