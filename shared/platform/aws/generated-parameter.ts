import { randomBytes } from 'node:crypto';
import type { CoreConfig } from '../config.js';
import { awsClientOptions } from '../clients.js';

/** A generated value's value, fetched (or made) on first use and kept for the container's life. */
export type GeneratedValue = () => Promise<string>;

/**
 * A key the stack needs but no one chooses, kept as an SSM `SecureString` parameter (free, where a Secrets Manager
 * secret costs $0.40 a month: docs/cost.md) and made by the first container that needs it: 32 random bytes, base64url.
 * CloudFormation cannot create a SecureString, so the parameter is put here, and only if none exists: two containers
 * that race both read the one that won. Read on the first call and kept; a failed read is not kept.
 */
export function generatedParameter(config: Pick<CoreConfig, 'region' | 'endpoints'>, name: string): GeneratedValue {
  let value: Promise<string> | undefined;
  const fetchOrMake = async (): Promise<string> => {
    // Imported on the first call, so a container that never needs the key does not load the client.
    const { SSMClient, GetParameterCommand, PutParameterCommand } = await import('./ssm-sdk.js');
    const client = new SSMClient(awsClientOptions(config, config.endpoints.ssm));
    const read = async () => (await client.send(new GetParameterCommand({ Name: name, WithDecryption: true }))).Parameter?.Value;
    try {
      const stored = await read();
      if (stored) return stored;
    } catch (error) {
      if ((error as { name?: string }).name !== 'ParameterNotFound') throw error;
    }
    const made = randomBytes(32).toString('base64url');
    try {
      await client.send(new PutParameterCommand({ Name: name, Value: made, Type: 'SecureString', Overwrite: false }));
      return made;
    } catch (error) {
      if ((error as { name?: string }).name !== 'ParameterAlreadyExists') throw error;
      const stored = await read();
      if (!stored) throw new Error(`${name}: the parameter is empty`, { cause: error });
      return stored;
    }
  };
  return () => {
    value ??= fetchOrMake().catch((error: unknown) => {
      value = undefined;
      throw error;
    });
    return value;
  };
}
