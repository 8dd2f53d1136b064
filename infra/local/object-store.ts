import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// s3rver is CommonJS without types: a local S3 stand-in that honours presigned URLs.
import S3rver from 's3rver';

export type ObjectStore = { endpoint: string; stop: () => Promise<void> };

/** A local S3 with the releases bucket, keeping objects under `directory` (a temporary one when none). */
export async function startObjectStore(options: { directory?: string; bucket: string; port: number }): Promise<ObjectStore> {
  const directory = options.directory ?? mkdtempSync(join(tmpdir(), 'licensing-s3-'));
  mkdirSync(directory, { recursive: true });
  const server = new S3rver({
    port: options.port,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: options.bucket }],
  });
  await server.run();
  return {
    endpoint: `http://127.0.0.1:${options.port}`,
    stop: async () => {
      await server.close();
      if (!options.directory) rmSync(directory, { recursive: true, force: true });
    },
  };
}
