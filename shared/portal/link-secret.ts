import type { CoreConfig } from '../config.js';
import { awsClientOptions } from '../clients.js';

/** The key that signs portal download links, fetched on first use and kept for the container's life. */
export type LinkSecret = () => Promise<Buffer>;

/**
 * Locally the key comes from the environment (infra/local/provider-key.ts); in AWS it is the stack's Secrets
 * Manager secret, read once per container. The client is imported on the first portal download, so calls that
 * never sign or check a link do not load it. A failed read is not kept: the next request tries again.
 */
export function createLinkSecret(config: CoreConfig): LinkSecret {
  let secret: Promise<Buffer> | undefined;
  const read = async (): Promise<Buffer> => {
    const { localKey, secretArn } = config.downloadLinks;
    if (localKey) return Buffer.from(localKey, 'base64');
    if (!secretArn) throw new Error('DOWNLOAD_LINK_SECRET_ARN is not configured');
    const { SecretsManagerClient, GetSecretValueCommand } = await import('../aws/secrets-manager-sdk.js');
    const client = new SecretsManagerClient(awsClientOptions(config, undefined));
    const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: secretArn }));
    if (!SecretString) throw new Error('The download-link secret is empty');
    return Buffer.from(SecretString, 'utf8');
  };
  return () => {
    secret ??= read().catch((error: unknown) => {
      secret = undefined;
      throw error;
    });
    return secret;
  };
}
