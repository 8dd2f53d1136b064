import type { CoreConfig } from '../platform/index.js';
import { secretValue } from '../platform/aws/index.js';

/** The key that signs portal download links, fetched on first use and kept for the container's life. */
export type LinkSecret = () => Promise<Buffer>;

/**
 * Locally the key comes from the environment, base64 (infra/local/provider-key.ts); in AWS it is the stack's Secrets
 * Manager secret (generated letters and digits), read as `secretValue` reads any: on the first portal download, kept,
 * and read again after a failure.
 */
export function createLinkSecret(config: CoreConfig): LinkSecret {
  const { localKey, secretArn } = config.downloadLinks;
  if (localKey) {
    const key = Buffer.from(localKey, 'base64');
    return async () => key;
  }
  const value = secretValue(config, { secretId: secretArn }, 'DOWNLOAD_LINK_SECRET_ARN');
  let key: Buffer | undefined;
  return async () => (key ??= Buffer.from(await value(), 'utf8'));
}
