import { formatUrl } from '@aws-sdk/core/util';
import type { S3RequestPresigner } from '@aws-sdk/s3-request-presigner';
import { HttpRequest } from '@smithy/core/protocols';
import { Hash } from '@smithy/core/serde';
import type { AwsCredentialIdentityProvider } from '@smithy/types';
import type { CoreConfig } from '../config.js';

/** The first segment of every release file's key: the front door serves `/releases/*` from the bucket as they are. */
export const RELEASE_FILES_ROOT = 'releases';
/** The front door's path of release files: `/<key>`, every key being under `releases/`. */
export const RELEASE_FILES_PATH = `/${RELEASE_FILES_ROOT}`;

/** Short-lived GET URLs of release files that make browsers save the file under its original name. */
export type DownloadLinks = { presign(filePath: string, fileName: string, expiresInSeconds: number): Promise<string> };

/** S3 keys keep their `/`; every other reserved character is escaped once (S3 signs the path as sent). */
const encodeKey = (key: string) => key.split('/').map(encodeURIComponent).join('/');

/**
 * Signs download URLs with the official presigner, without an S3 client: the edge function only ever signs
 * (the file goes from S3 to the caller), so its bundle carries the signer and not S3's client. The signer is
 * loaded and built on the first download, as most containers never serve one. `credentials` are the function's own
 * (the table client's provider), which its role lets read the bucket.
 *
 * With a front door (`releaseFilesUrl`), the URL is signed for the bucket as ever and handed out on the front door's
 * host: CloudFront passes `/releases/…` with its query to the bucket's regional host unchanged, where S3 checks the
 * signature it always checks (docs/deploy.md, "Release downloads"). The file then leaves AWS through CloudFront.
 */
export function createDownloadLinks(
  config: Pick<CoreConfig, 'region' | 'bucketName' | 'endpoints' | 'downloadLinks'>,
  credentials: AwsCredentialIdentityProvider,
): DownloadLinks {
  let presigner: Promise<S3RequestPresigner> | undefined;
  return {
    async presign(filePath, fileName, expiresInSeconds) {
      const bucket = config.bucketName;
      if (!bucket) throw new Error('BUCKET_NAME is not configured');
      presigner ??= import('../aws/s3-presigner.js').then((sdk) => new sdk.S3RequestPresigner({ credentials, region: config.region, sha256: Hash.bind(null, 'sha256') }));
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
      const url = formatUrl(await (await presigner).presign(request, { expiresIn: expiresInSeconds }));
      const frontDoor = config.downloadLinks.releaseFilesUrl;
      // The query as signed, byte for byte: S3 recomputes the signature from it.
      return frontDoor ? `${frontDoor}/${encodeKey(filePath)}${url.slice(url.indexOf('?'))}` : url;
    },
  };
}
