import { formatUrl } from '@aws-sdk/core/util';
import { S3RequestPresigner } from '@aws-sdk/s3-request-presigner';
import { HttpRequest } from '@smithy/core/protocols';
import { Hash } from '@smithy/core/serde';
import type { AwsCredentialIdentityProvider } from '@smithy/types';
import type { Config } from '../config.js';

/** Short-lived GET URLs of release files that make browsers save the file under its original name. */
export type DownloadLinks = { presign(filePath: string, fileName: string, expiresInSeconds: number): Promise<string> };

/** S3 keys keep their `/`; every other reserved character is escaped once (S3 signs the path as sent). */
const encodeKey = (key: string) => key.split('/').map(encodeURIComponent).join('/');

/**
 * Signs download URLs with the official presigner, without an S3 client: the edge function only ever signs
 * (the file goes from S3 to the caller), so its bundle carries the signer and not S3's client. The signer is
 * built on the first download, as most containers never serve one. `credentials` are the function's own
 * (the table client's provider), which its role lets read the bucket.
 */
export function createDownloadLinks(config: Pick<Config, 'region' | 'bucketName' | 'endpoints'>, credentials: AwsCredentialIdentityProvider): DownloadLinks {
  let presigner: S3RequestPresigner | undefined;
  return {
    async presign(filePath, fileName, expiresInSeconds) {
      const bucket = config.bucketName;
      if (!bucket) throw new Error('BUCKET_NAME is not configured');
      presigner ??= new S3RequestPresigner({ credentials, region: config.region, sha256: Hash.bind(null, 'sha256') });
      // Locally the S3 stand-in takes path-style addresses; in AWS, the bucket's own regional host.
      const local = config.endpoints.s3 ? new URL(config.endpoints.s3) : undefined;
      const request = new HttpRequest({
        method: 'GET',
        protocol: local?.protocol ?? 'https:',
        hostname: local?.hostname ?? `${bucket}.s3.${config.region}.amazonaws.com`,
        ...(local?.port ? { port: Number(local.port) } : {}),
        path: local ? `/${bucket}/${encodeKey(filePath)}` : `/${encodeKey(filePath)}`,
        query: { 'response-content-disposition': `attachment; filename="${fileName.replace(/["\\\r\n]/g, '_')}"` },
        headers: {},
      });
      return formatUrl(await presigner.presign(request, { expiresIn: expiresInSeconds }));
    },
  };
}
