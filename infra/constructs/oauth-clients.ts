import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { Secret, type ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import type { OAuthClientSettings, OAuthSettings } from '../settings.js';
import { settingValue } from './setting-value.js';

/** The variables of shared/platform/config.ts that name each provider's client. */
const VARIABLES = {
  google: { clientId: 'GOOGLE_CLIENT_ID', clientSecretId: 'GOOGLE_CLIENT_SECRET_ID' },
  github: { clientId: 'GITHUB_CLIENT_ID', clientSecretId: 'GITHUB_CLIENT_SECRET_ID' },
} as const;

/**
 * The OAuth clients of sign-in with Google and GitHub. A client id goes into the function's environment as written
 * (or read from SSM at deployment); a client secret never does: the vendor keeps it in a Secrets Manager secret of
 * their own, which the stack only references. The function gets the secret's name or ARN and read access to it, and
 * reads the value once per container (shared/platform/aws/secret-value.ts). A provider left unset is not configured (404).
 */
export class OAuthClients extends Construct {
  readonly secrets: Partial<Record<keyof typeof VARIABLES, ISecret>> = {};
  private readonly clients: [keyof typeof VARIABLES, OAuthClientSettings][];

  constructor(scope: Construct, id: string, settings: OAuthSettings = {}) {
    super(scope, id);
    this.clients = (Object.keys(VARIABLES) as (keyof typeof VARIABLES)[]).flatMap((provider) => {
      const client = settings[provider];
      return client ? [[provider, client] as [keyof typeof VARIABLES, OAuthClientSettings]] : [];
    });
    for (const [provider, client] of this.clients) this.secrets[provider] = importSecret(this, `${provider}ClientSecret`, client.clientSecretId);
  }

  /** The client ids, the secrets' ids and read access to the secrets, in one call. */
  bind(fn: LambdaFunction): void {
    for (const [provider, client] of this.clients) {
      this.secrets[provider]!.grantRead(fn);
      fn.addEnvironment(VARIABLES[provider].clientId, settingValue(this, client.clientId));
      fn.addEnvironment(VARIABLES[provider].clientSecretId, client.clientSecretId);
    }
  }
}

/** A secret by full ARN (with Secrets Manager's 6-character suffix), partial ARN, or name. */
function importSecret(scope: Construct, id: string, nameOrArn: string): ISecret {
  if (!nameOrArn.startsWith('arn:')) return Secret.fromSecretNameV2(scope, id, nameOrArn);
  return /-[A-Za-z0-9]{6}$/.test(nameOrArn) ? Secret.fromSecretCompleteArn(scope, id, nameOrArn) : Secret.fromSecretPartialArn(scope, id, nameOrArn);
}
