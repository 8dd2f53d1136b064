/**
 * The deployment's settings, read from CDK context only (`cdk.json` or `-c key=value`). Never from the
 * deploying shell's environment: a shell that exports the local runtime's values (`DASHBOARD_URL=http://localhost…`)
 * must not deploy them. Checked here, so that a typo fails `cdk synth`, not the first cold start.
 *
 * Settings marked "ssm" also take `ssm:<parameter name>`: the value of that SSM String parameter,
 * read by CloudFormation at deployment (`infra/constructs/setting-value.ts`).
 */
export interface DeploySettings {
  /** Names the stacks (`LicensingService-<stage>`) and, through them, every physical name. */
  readonly stage: string;
  /** Pin the stacks to an account and region; unset, they go where the CLI's credentials point. */
  readonly account?: string;
  readonly region?: string;
  /** Requests per 5 minutes per IP address; set, the API goes behind CloudFront with a WAF rate limit. */
  readonly edgeRateLimit?: number;
  /** Base of generated links (ssm). */
  readonly publicBaseUrl?: string;
  /** The dashboard's origin: used at synthesis for the bucket's CORS rule, so never an SSM reference. */
  readonly dashboardUrl?: string;
  /** Sender address of outgoing mail (ssm). */
  readonly mailFrom?: string;
  /** Where alarms are e-mailed (ssm); unset, the alarm topic has no subscription. */
  readonly alarmEmail?: string;
  readonly customDomain?: CustomDomainSettings;
  /** Sign-in with Google and GitHub; a provider left out answers its routes with 404. */
  readonly oauth?: OAuthSettings;
}

export interface OAuthSettings {
  readonly google?: OAuthClientSettings;
  readonly github?: OAuthClientSettings;
}

/**
 * One OAuth client: its id in the template (or from SSM), its secret never. `clientSecretId` names the Secrets Manager
 * secret (name or ARN) that holds the client secret as plain text; the function reads it at run time.
 */
export interface OAuthClientSettings {
  /** The provider's client id (ssm). */
  readonly clientId: string;
  readonly clientSecretId: string;
}

export interface CustomDomainSettings {
  /** The API's own host name, e.g. `licenses.example.com`. */
  readonly domainName: string;
  /** An existing ACM certificate for it, in the stack's region (ssm). */
  readonly certificateArn?: string;
  /** The Route 53 zone that holds the name: the stack validates a new certificate and adds the alias records there. */
  readonly hostedZone?: { readonly hostedZoneId: string; readonly zoneName: string };
}

export const DEFAULT_STAGE = 'prod';
const SSM_PREFIX = 'ssm:';
const SECRETS_MANAGER_PREFIX = 'secretsmanager:';

/** A value to read from SSM at deployment rather than use as written. */
export function ssmParameterName(value: string): string | undefined {
  return value.startsWith(SSM_PREFIX) ? value.slice(SSM_PREFIX.length) : undefined;
}

/** `tryGetContext` of a construct node, or anything that answers the same way. */
export type ContextReader = (key: string) => unknown;

export function readDeploySettings(context: ContextReader): DeploySettings {
  const text = (key: string): string | undefined => {
    const value = context(key);
    return value === undefined || value === null || value === '' ? undefined : String(value);
  };
  const url = (key: string, { ssm }: { ssm: boolean }): string | undefined => {
    const value = text(key);
    if (value === undefined || (ssm && ssmParameterName(value) !== undefined)) return value;
    if (!/^https?:$/.test(URL.parse(value)?.protocol ?? '')) {
      throw new Error(`${key} must be an absolute http(s) URL${ssm ? ' or ssm:<parameter>' : ''}, got "${value}"`);
    }
    return value;
  };
  const emailAddress = (key: string): string | undefined => {
    const value = text(key);
    if (value !== undefined && ssmParameterName(value) === undefined && !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value)) {
      throw new Error(`${key} must be an e-mail address or ssm:<parameter>, got "${value}"`);
    }
    return value;
  };
  const whole = (key: string): number | undefined => {
    const value = text(key);
    if (value !== undefined && !/^\d+$/.test(value)) throw new Error(`${key} must be a whole number, got "${value}"`);
    return value === undefined ? undefined : Number(value);
  };

  const stage = text('stage') ?? DEFAULT_STAGE;
  // Stack, dashboard, topic and alarm names all take it: letters, digits and hyphens suit every one of them.
  if (!/^[a-z0-9][a-z0-9-]{0,31}$/.test(stage)) throw new Error(`stage must be 1–32 lower-case letters, digits or hyphens, got "${stage}"`);

  const account = text('account');
  const region = text('region');
  const edgeRateLimit = whole('edgeRateLimit');
  if (edgeRateLimit !== undefined && (!account || !region)) {
    throw new Error(
      'edgeRateLimit needs an explicit account and region (-c account=123456789012 -c region=eu-west-1): its web ACL lives ' +
        'in a stack in us-east-1 that the service stack references across regions',
    );
  }

  return {
    stage,
    account,
    region,
    edgeRateLimit,
    publicBaseUrl: url('publicBaseUrl', { ssm: true }),
    dashboardUrl: url('dashboardUrl', { ssm: false }),
    mailFrom: text('mailFrom'),
    alarmEmail: emailAddress('alarmEmail'),
    customDomain: readCustomDomain(text),
    ...optional('oauth', readOAuth(text)),
  };
}

/** `{ [key]: value }` when there is a value: an unset setting leaves no key behind. */
const optional = <K extends string, V>(key: K, value: V | undefined) => (value === undefined ? {} : ({ [key]: value } as Record<K, V>));

/**
 * `googleClientId` and `googleClientSecret` (likewise `github…`): both or neither. The secret setting must be
 * `secretsmanager:<secret name or ARN>`, a reference to where the secret is kept: a bare value is refused, since it
 * could only be the secret itself, which would then sit in the template and in the function's configuration.
 */
function readOAuth(text: (key: string) => string | undefined): OAuthSettings | undefined {
  const client = (provider: 'google' | 'github'): OAuthClientSettings | undefined => {
    const clientId = text(`${provider}ClientId`);
    const secret = text(`${provider}ClientSecret`);
    if (clientId === undefined && secret === undefined) return undefined;
    if (clientId === undefined || secret === undefined) throw new Error(`${provider}ClientId and ${provider}ClientSecret go together`);
    const clientSecretId = secret.startsWith(SECRETS_MANAGER_PREFIX) ? secret.slice(SECRETS_MANAGER_PREFIX.length) : undefined;
    // Secrets Manager names: 1–512 of letters, digits and /_+=.@-; or an ARN.
    if (!clientSecretId || !/^(arn:aws[\w-]*:secretsmanager:[\w-]+:\d{12}:secret:)?[\w/+=.@-]{1,512}$/.test(clientSecretId)) {
      throw new Error(
        `${provider}ClientSecret must be secretsmanager:<secret name or ARN> (the Secrets Manager secret that holds the client ` +
          'secret), never the secret itself: see docs/deploy.md',
      );
    }
    return { clientId, clientSecretId };
  };
  const google = client('google');
  const github = client('github');
  return google || github ? { ...optional('google', google), ...optional('github', github) } : undefined;
}

function readCustomDomain(text: (key: string) => string | undefined): CustomDomainSettings | undefined {
  const domainName = text('domainName');
  const certificateArn = text('certificateArn');
  const hostedZoneId = text('hostedZoneId');
  const zoneName = text('hostedZoneName');
  if (domainName === undefined) {
    if (certificateArn ?? hostedZoneId ?? zoneName) throw new Error('certificateArn, hostedZoneId and hostedZoneName need domainName');
    return undefined;
  }
  if ((hostedZoneId === undefined) !== (zoneName === undefined)) throw new Error('hostedZoneId and hostedZoneName go together');
  if (certificateArn === undefined && hostedZoneId === undefined) {
    throw new Error(`domainName ${domainName} needs certificateArn (an ACM certificate in the stack's region) or hostedZoneId and hostedZoneName`);
  }
  return { domainName, certificateArn, hostedZone: hostedZoneId && zoneName ? { hostedZoneId, zoneName } : undefined };
}
