import { REGISTRATION_MODES, type RegistrationMode } from '../shared/platform/config.js';

/**
 * The deployment's settings, read from CDK context only (`cdk.json` or `-c key=value`). Never from the
 * deploying shell's environment: a shell that exports the local runtime's values (`DASHBOARD_URL=http://localhost…`)
 * must not deploy them. Checked here, so that a typo fails `cdk synth`, not the first cold start.
 *
 * Settings marked "ssm" also take `ssm:<parameter name>`: the value of that SSM String parameter, which must exist in
 * the stack's region before the deployment, read by CloudFormation when it creates the change set
 * (`infra/constructs/setting-value.ts`). Its name is checked here; its value only at deployment and cold start.
 */
export interface DeploySettings {
  /** Names the stacks (`LicensingService-<stage>`) and, through them, every physical name. */
  readonly stage: string;
  /** Pin the stacks to an account and region; unset, they go where the CLI's credentials point. */
  readonly account?: string;
  readonly region?: string;
  /** Requests per 5 minutes per IP address to the service's paths; set, the front door carries a WAF rate limit. */
  readonly edgeRateLimit?: number;
  /**
   * `false` (`-c dashboard=false`): no CloudFront at all, so no dashboard and no front door: the HTTP API alone, as a
   * brand-new account needs until AWS lets it create CloudFront resources (docs/deploy.md). Unset: both.
   */
  readonly dashboard?: false;
  /**
   * A label of the origin secret's latest rotation (a date, say): changing it redeploys the front door, which makes
   * CloudFront read the secret's new value (docs/deploy.md, "Rotating the origin secret").
   */
  readonly originSecretRotation?: string;
  /** The front door's CloudFront price class. Unset: `PriceClass_100` (North America and Europe). */
  readonly priceClass?: FrontDoorPriceClass;
  /** Base of generated links (ssm). */
  readonly publicBaseUrl?: string;
  /** The dashboard's origin: used at synthesis for the bucket's CORS rule, so never an SSM reference. */
  readonly dashboardUrl?: string;
  /** Sender address of outgoing mail (ssm); unset, the deployment asks for it (the stack's `MailFrom` parameter). */
  readonly mailFrom?: string;
  /** `-c allowDefaultMailFrom=true`: a trial deployment without a sender (`no-reply@example.com`, which SES refuses). */
  readonly allowDefaultMailFrom?: true;
  /** Where alarms are e-mailed (ssm); unset, the alarm topic has no subscription. */
  readonly alarmEmail?: string;
  readonly customDomain?: CustomDomainSettings;
  /** Sign-in with Google and GitHub; a provider left out answers its routes with 404. */
  readonly oauth?: OAuthSettings;
  /**
   * Who may create an account (DECISIONS §20): `invite` (the stack's default), the deployment's first account and
   * addresses holding a pending invitation; `open` (`-c registration=open`), anyone.
   */
  readonly registration?: RegistrationMode;
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

/** CloudFront's price classes, by the names CloudFront gives them. */
export const FRONT_DOOR_PRICE_CLASSES = ['PriceClass_100', 'PriceClass_200', 'PriceClass_All'] as const;
export type FrontDoorPriceClass = (typeof FRONT_DOOR_PRICE_CLASSES)[number];

export const DEFAULT_STAGE = 'prod';
const SSM_PREFIX = 'ssm:';
const SECRETS_MANAGER_PREFIX = 'secretsmanager:';

/** A value to read from SSM at deployment rather than use as written. */
export function ssmParameterName(value: string): string | undefined {
  return value.startsWith(SSM_PREFIX) ? value.slice(SSM_PREFIX.length) : undefined;
}

/**
 * SSM's rules for a parameter name (letters, digits and `_.-/`, up to 1011 characters; a path starts with `/`, and no
 * name starts with `aws` or `ssm`), checked at synthesis: a name CloudFormation cannot resolve would otherwise fail
 * the deployment's change set. Whether the parameter exists, and is a String, only the deployment can tell.
 */
function checkParameterName(key: string, name: string): void {
  const problem =
    !/^[A-Za-z0-9_.\-/]{1,1011}$/.test(name) ? 'letters, digits and _ . - / only, at most 1011 characters'
    : name.includes('/') && !name.startsWith('/') ? 'a path starts with /'
    : /^\/?(aws|ssm)/i.test(name) ? 'no name starts with aws or ssm'
    : undefined;
  if (problem) throw new Error(`${key}: ssm:${name} is not an SSM parameter name (${problem})`);
}

/** `tryGetContext` of a construct node, or anything that answers the same way. */
export type ContextReader = (key: string) => unknown;

export function readDeploySettings(context: ContextReader): DeploySettings {
  const text = (key: string): string | undefined => {
    const value = context(key);
    if (value === undefined || value === null || value === '') return undefined;
    const parameter = ssmParameterName(String(value));
    if (parameter !== undefined) checkParameterName(key, parameter);
    return String(value);
  };
  const flag = (key: string): boolean | undefined => {
    const value = text(key);
    if (value !== undefined && value !== 'true' && value !== 'false') throw new Error(`${key} must be true or false, got "${value}"`);
    return value === undefined ? undefined : value === 'true';
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
  const frontDoor = flag('dashboard') !== false;
  const edgeRateLimit = whole('edgeRateLimit');
  if (edgeRateLimit !== undefined && !frontDoor) {
    throw new Error('edgeRateLimit puts a web ACL on the front door (CloudFront), which dashboard=false leaves out: drop one of the two');
  }
  if (edgeRateLimit !== undefined && (!account || !region)) {
    throw new Error(
      'edgeRateLimit needs an explicit account and region (-c account=123456789012 -c region=eu-west-1): its web ACL lives ' +
        'in a stack in us-east-1 that the service stack references across regions',
    );
  }
  const originSecretRotation = text('originSecretRotation');
  if (originSecretRotation !== undefined && !/^[\w.:-]{1,40}$/.test(originSecretRotation)) {
    throw new Error(`originSecretRotation must be 1–40 letters, digits or . : _ - (a date, say), got "${originSecretRotation}"`);
  }
  if (originSecretRotation !== undefined && !frontDoor) throw new Error('originSecretRotation rotates the front door’s secret, which dashboard=false leaves out');
  const priceClass = text('priceClass');
  if (priceClass !== undefined && !(FRONT_DOOR_PRICE_CLASSES as readonly string[]).includes(priceClass)) {
    throw new Error(`priceClass must be one of ${FRONT_DOOR_PRICE_CLASSES.join(', ')}, got "${priceClass}"`);
  }

  const registration = text('registration');
  if (registration !== undefined && !(REGISTRATION_MODES as readonly string[]).includes(registration)) {
    throw new Error(`registration must be one of ${REGISTRATION_MODES.join(', ')}, got "${registration}"`);
  }

  const mailFrom = emailAddress('mailFrom');
  // Without a sender every license e-mail would fail for an hour and land in the dead-letter queue: the stack then asks
  // for one at deployment (a `MailFrom` parameter without a default), whether or not account and region are given.
  // `allowDefaultMailFrom=true` lets a trial deployment go without.
  const allowDefaultMailFrom = mailFrom === undefined && flag('allowDefaultMailFrom') === true;

  const customDomain = readCustomDomain(text, { frontDoor });
  if (frontDoor && customDomain?.hostedZone && !customDomain.certificateArn && region !== 'us-east-1' && !(account && region)) {
    throw new Error(
      `domainName ${customDomain.domainName} on the front door needs a certificate in us-east-1: give certificateArn, or an explicit ` +
        'account and region (-c account=… -c region=…) so that a stack in us-east-1 makes one, validated in the hosted zone',
    );
  }

  return {
    stage,
    account,
    region,
    edgeRateLimit,
    ...optional('dashboard', frontDoor ? undefined : (false as const)),
    ...optional('originSecretRotation', originSecretRotation),
    ...optional('priceClass', priceClass as FrontDoorPriceClass | undefined),
    publicBaseUrl: url('publicBaseUrl', { ssm: true }),
    dashboardUrl: url('dashboardUrl', { ssm: false }),
    mailFrom,
    ...optional('allowDefaultMailFrom', allowDefaultMailFrom ? (true as const) : undefined),
    alarmEmail: emailAddress('alarmEmail'),
    customDomain,
    ...optional('oauth', readOAuth(text)),
    ...optional('registration', registration as RegistrationMode | undefined),
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

/**
 * The custom domain goes on the front door (CloudFront) when there is one, else on the HTTP API. CloudFront takes
 * certificates from us-east-1 only, API Gateway's regional names from the stack's region.
 */
function readCustomDomain(text: (key: string) => string | undefined, { frontDoor }: { frontDoor: boolean }): CustomDomainSettings | undefined {
  const domainName = text('domainName');
  const certificateArn = text('certificateArn');
  const hostedZoneId = text('hostedZoneId');
  const zoneName = text('hostedZoneName');
  if (domainName === undefined) {
    if (certificateArn ?? hostedZoneId ?? zoneName) throw new Error('certificateArn, hostedZoneId and hostedZoneName need domainName');
    return undefined;
  }
  if ((hostedZoneId === undefined) !== (zoneName === undefined)) throw new Error('hostedZoneId and hostedZoneName go together');
  const certificateRegion = frontDoor ? 'us-east-1, as CloudFront requires' : "the stack's region";
  if (certificateArn === undefined && hostedZoneId === undefined) {
    throw new Error(`domainName ${domainName} needs certificateArn (an ACM certificate in ${certificateRegion}) or hostedZoneId and hostedZoneName`);
  }
  const arnRegion = certificateArn && ssmParameterName(certificateArn) === undefined ? certificateArn.split(':')[3] : undefined;
  if (frontDoor && arnRegion !== undefined && arnRegion !== 'us-east-1') {
    throw new Error(`certificateArn must be an ACM certificate in us-east-1: the custom domain is on the front door (CloudFront), got one in ${arnRegion}`);
  }
  return { domainName, certificateArn, hostedZone: hostedZoneId && zoneName ? { hostedZoneId, zoneName } : undefined };
}
