import { awsClientOptions } from '../clients.js';
import { GetSecretValueCommand, SecretsManagerClient } from '../aws/secrets-manager-sdk.js';

/**
 * Reads a version of the front door's secret from Secrets Manager. Its own module, imported on the first request that
 * needs it, so that neither the SDK nor the clients' options cost a cold start (the reference docs function loads
 * nothing else of the AWS SDK).
 */
export function secretVersionReader(config: { region?: string; endpoint?: string; secretId: string }) {
  const client = new SecretsManagerClient(awsClientOptions({ region: config.region ?? 'us-east-1' }, config.endpoint));
  return async (stage: 'AWSCURRENT' | 'AWSPREVIOUS'): Promise<string | undefined> => {
    try {
      const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: config.secretId, VersionStage: stage }));
      return SecretString?.trim() || undefined;
    } catch (error) {
      // A secret never rotated has no AWSPREVIOUS version.
      if (stage === 'AWSPREVIOUS' && (error as { name?: string }).name === 'ResourceNotFoundException') return undefined;
      throw error;
    }
  };
}
