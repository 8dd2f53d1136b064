import type { CoreConfig } from '../config.js';
import { awsClientOptions } from '../clients.js';

/** A secret's value, fetched on first use and kept for the container's life. */
export type SecretValue = () => Promise<string>;

/**
 * `value` when the environment holds the secret itself (the local runtime); otherwise the Secrets Manager secret
 * `secretId` (name or ARN), read on the first call and kept. The client is imported then, so a container that never
 * needs the secret does not load it. A failed read is not kept: the next call tries again.
 */
export function secretValue(config: CoreConfig, source: { value?: string; secretId?: string }, label: string): SecretValue {
  let secret: Promise<string> | undefined;
  const read = async (): Promise<string> => {
    if (source.value) return source.value;
    if (!source.secretId) throw new Error(`${label}: neither the secret nor a Secrets Manager secret id is configured`);
    const { SecretsManagerClient, GetSecretValueCommand } = await import('./secrets-manager-sdk.js');
    const client = new SecretsManagerClient(awsClientOptions(config, config.endpoints.secretsManager));
    const { SecretString } = await client.send(new GetSecretValueCommand({ SecretId: source.secretId }));
    if (!SecretString?.trim()) throw new Error(`${label}: the Secrets Manager secret is empty`);
    return SecretString.trim();
  };
  return () => {
    secret ??= read().catch((error: unknown) => {
      secret = undefined;
      throw error;
    });
    return secret;
  };
}
