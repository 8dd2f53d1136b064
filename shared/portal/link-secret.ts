import type { CoreConfig } from '../platform/index.js';
import { generatedParameter } from '../platform/aws/index.js';

/** The key that signs portal download links, fetched on first use and kept for the container's life. */
export type LinkSecret = () => Promise<Buffer>;

/**
 * Locally the key comes from the environment, base64 (infra/local/provider-key.ts); in AWS it is the stage's SSM
 * `SecureString` parameter (`DOWNLOAD_LINK_PARAMETER`), made by the first portal container that signs a link: read
 * as `generatedParameter` reads it, on the first portal download, kept, and read again after a failure.
 */
export function createLinkSecret(config: CoreConfig): LinkSecret {
  const { localKey, parameterName } = config.downloadLinks;
  if (localKey) {
    const key = Buffer.from(localKey, 'base64');
    return async () => key;
  }
  if (!parameterName) {
    return async () => {
      throw new Error('DOWNLOAD_LINK_PARAMETER: neither the key nor its SSM parameter is configured');
    };
  }
  const value = generatedParameter(config, parameterName);
  let key: Buffer | undefined;
  return async () => (key ??= Buffer.from(await value(), 'utf8'));
}
