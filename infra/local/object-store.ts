import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// s3rver is CommonJS without types: a local S3 stand-in that honours presigned URLs.
import S3rver from 's3rver';

// s3rver knows only its built-in `S3RVER` key; the functions sign with the key every local stand-in accepts.
const s3rverAccounts = createRequire(import.meta.url)('s3rver/lib/models/account.js') as {
  DUMMY_ACCOUNT: { createKeyPair: (accessKeyId: string, secretAccessKey: string) => void };
};
s3rverAccounts.DUMMY_ACCOUNT.createKeyPair('local', 'local');

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
  await server.run();
  return {
    endpoint: `http://127.0.0.1:${options.port}`,
    stop: async () => {
      await server.close();
      if (!options.directory) rmSync(directory, { recursive: true, force: true });
    },
  };
}
