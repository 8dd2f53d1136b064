import { Annotations, CfnOutput, CrossStackReferences, Duration, ReferenceStrength, Stack, Token, type StackProps } from 'aws-cdk-lib';
import { PriceClass } from 'aws-cdk-lib/aws-cloudfront';
import { HttpApi, HttpMethod, HttpStage, PayloadFormatVersion } from 'aws-cdk-lib/aws-apigatewayv2';
import { HttpLambdaIntegration } from 'aws-cdk-lib/aws-apigatewayv2-integrations';
import { RecordTarget } from 'aws-cdk-lib/aws-route53';
import { CloudFrontTarget } from 'aws-cdk-lib/aws-route53-targets';
import type { Table } from 'aws-cdk-lib/aws-dynamodb';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import type { Construct } from 'constructs';
import { NagSuppressions } from 'cdk-nag';
import { DEFAULT_MAIL_FROM, FUNCTION_CONFIG_SECTIONS, type ConfigSection, type RegistrationMode } from '../shared/platform/config.js';
import { BUNDLED_ASSETS_DIR, DOCS_ASSETS } from '../functions/docs/assets.js';
import { AccountImports } from './constructs/account-imports.js';
import { AlarmTopic } from './constructs/alarm-topic.js';
import { ServiceAlarms } from './constructs/alarms.js';
import { HealthCheck } from './constructs/health-check.js';
import { AccountExports } from './constructs/account-exports.js';
import { ApiAccessLogs } from './constructs/api-access-logs.js';
import { CustomDomain } from './constructs/custom-domain.js';
import { ServiceRecords } from './constructs/service-records.js';
import { ServiceDashboard } from './constructs/dashboard.js';
import { TableDeletionProtection } from './constructs/table-deletion-protection.js';
import { serviceTable } from './constructs/service-table.js';
import { bindTable, type TableBinding } from './constructs/table-access.js';
import { FrontDoor } from './constructs/front-door.js';
import { frontDoorDomain } from './constructs/front-door-domain.js';
import { OriginVerify } from './constructs/origin-verify.js';
import { ExpirySweep } from './constructs/expiry-sweep.js';
import { LeaseExpiry } from './constructs/lease-expiry.js';
import { MailDelivery } from './constructs/mail-delivery.js';
import { UsageEvents } from './constructs/usage-events.js';
import { acknowledgeFunctionFindings } from './constructs/function-findings.js';
import { bindBucket, ReleaseBucket, type BucketAccess } from './constructs/release-bucket.js';
import { serviceFunction } from './constructs/service-function.js';
import { requiredMailFrom, settingValue } from './constructs/setting-value.js';
import { WebhookDelivery } from './constructs/webhook-delivery.js';
import { ProviderSecretsKey } from './constructs/provider-secrets-key.js';
import { SECRET_ACCESS, type SecretAccess } from '../shared/platform/secrets/secret-access.js';
import { DownloadLinkKey } from './constructs/download-link-key.js';
import { OAuthClients } from './constructs/oauth-clients.js';
import { pascalCase } from './names.js';
import { HANDLER_ENTRIES, ROUTES, SURFACE_TIMEOUT_SECONDS, SURFACES, type Surface } from './routes.js';
import type { CustomDomainSettings, OAuthSettings } from './settings.js';

/**
 * What each surface's function is given. Keyed by `Surface`, so adding a surface to `SURFACES`
 * does not compile until someone has decided its size and what it may touch (least privilege is
 * a decision per function, not a default).
 */
type SurfaceSettings = {
  memorySize: number;
  timeout: Duration;
  /**
   * Read or write, and which partition keys: a role of `shared/platform/data/key-access.ts`, or `'all'`.
   * The handler passes the same role to `createDeps`, which enforces it on the local stack. Absent: no table.
   */
  table?: TableBinding;
  /** Release files; absent: the function has no access to the bucket. */
  bucket?: BucketAccess;
  /** Sealed secrets (the KMS key), by kind: the function's entry in `SECRET_ACCESS`; absent: none. */
  providerSecrets?: SecretAccess;
  /** Signs and checks portal download links (the key's SSM parameter); absent: no access. */
  downloadLinks?: true;
  /** Signs vendors in with Google and GitHub: the OAuth client ids and read access to their secrets; absent: none. */
  oauthClients?: true;
  /** Files copied beside the bundle for the handler to read (the reference docs' document and renderer). */
  assets?: { directory: string; files: Record<string, string> };
};

const SURFACE_SETTINGS: Record<Surface, SurfaceSettings> = {
  // Accounts, sessions and API keys are its alone: the one function with the whole table.
  // Connecting a payment provider seals its secrets, creating or rotating a product seals its signing key; OAuth
  // sign-in reads the clients' secrets.
  management: {
    memorySize: 512,
    timeout: Duration.seconds(SURFACE_TIMEOUT_SECONDS.management),
    table: { access: 'readWrite', keys: 'all' },
    bucket: 'readWrite',
    providerSecrets: SECRET_ACCESS.management,
    oauthClients: true,
  },
  // License operations write activations; 1 GB gives ARM Lambda the CPU for low-latency validate.
  // Reads the bucket only to presign downloads; opens products' signing keys (and no other secret) to sign answers.
  edge: {
    memorySize: 1024,
    timeout: Duration.seconds(SURFACE_TIMEOUT_SECONDS.edge),
    table: { access: 'readWrite', keys: 'edge' },
    bucket: 'read',
    providerSecrets: SECRET_ACCESS.edge,
  },
  // Checkout opens the vendor's Stripe key; signed answers and offline license files open products' signing keys.
  public: { memorySize: 1024, timeout: Duration.seconds(SURFACE_TIMEOUT_SECONDS.public), table: { access: 'readWrite', keys: 'public' }, providerSecrets: SECRET_ACCESS.public },
  // The vendor's server: reads its customers, presigns `/dl` downloads (bucket read), signs and checks their links,
  // and opens the vendor's Stripe key to cancel a subscription.
  portal: {
    memorySize: 512,
    timeout: Duration.seconds(SURFACE_TIMEOUT_SECONDS.portal),
    table: { access: 'readWrite', keys: 'portal' },
    bucket: 'read',
    providerSecrets: SECRET_ACCESS.portal,
    downloadLinks: true,
  },
  // Opens the vendor's webhook secret, and key to read a subscription; a purchase is a few reads, one Stripe
  // call and one transaction. Its event claims' lease (60 s) outlasts the timeout.
  stripeWebhook: {
    memorySize: 512,
    timeout: Duration.seconds(SURFACE_TIMEOUT_SECONDS.stripeWebhook),
    table: { access: 'readWrite', keys: 'stripeWebhook' },
    providerSecrets: SECRET_ACCESS.stripeWebhook,
  },
  // Static files only: the OpenAPI document and Swagger UI beside the bundle. No table, bucket, key or secret.
  docs: { memorySize: 256, timeout: Duration.seconds(SURFACE_TIMEOUT_SECONDS.docs), assets: { directory: BUNDLED_ASSETS_DIR, files: DOCS_ASSETS } },
};

export interface LicensingStackProps extends StackProps {
  /**
   * Base of generated links (`PUBLIC_BASE_URL`), or `ssm:<parameter>`; unset: the front door's address (the custom
   * domain when there is one), else (`dashboard: false`) the custom domain's URL, else the API's own domain from the
   * request.
   */
  readonly publicBaseUrl?: string;
  /**
   * The dashboard's origin (`DASHBOARD_URL`): the only origin given credentialed CORS answers, and where OAuth sign-ins
   * land. Unset: the front door.
   */
  readonly dashboardUrl?: string;
  /**
   * Sender address of the service's e-mails (`MAIL_FROM`, the mail sender's alone), or `ssm:<parameter>`: an address SES has
   * verified, or one at a verified domain; the mail sender may send as this address only. Unset: the template asks for
   * it (a `MailFrom` parameter without a default), so a deployment cannot go without one by mistake.
   */
  readonly mailFrom?: string;
  /** With no `mailFrom`: send from `no-reply@example.com`, which SES refuses (a trial; synthesis warns), rather than ask. */
  readonly allowDefaultMailFrom?: boolean;
  /** Subscribed by e-mail to the alarm topic, or `ssm:<parameter>`; unset: the topic has no subscription. */
  readonly alarmEmail?: string;
  /**
   * Who may create an account (`REGISTRATION`, the management function's alone; DECISIONS §20): `invite`, the
   * deployment's first account and addresses holding a pending invitation; `open`, anyone. @default 'invite'
   */
  readonly registration?: RegistrationMode;
  /**
   * The vendor's own host name: on the front door (its certificate in us-east-1), or with `dashboard: false` on the
   * HTTP API (`CustomDomain`, its certificate in the stack's region). Unset: the default addresses.
   */
  readonly customDomain?: CustomDomainSettings;
  /**
   * `false`: no CloudFront at all (no dashboard, no front door), as a new account needs until AWS verifies it for
   * CloudFront: the HTTP API alone, callers reach it directly. @default true
   */
  readonly dashboard?: boolean;
  /** The label of the origin secret's latest rotation: a new one makes CloudFront read the secret's new value. */
  readonly originSecretRotation?: string;
  /** The front door's price class. @default PriceClass.PRICE_CLASS_100 (North America and Europe) */
  readonly priceClass?: PriceClass;
  /**
   * Sign-in with Google and GitHub: each provider's client id (or `ssm:<parameter>`) and the Secrets Manager secret
   * (name or ARN) holding its client secret, which the template never holds. Unset: that provider answers 404.
   */
  readonly oauth?: OAuthSettings;
  /** Default-stage throttling of the HTTP API. @default { rateLimit: 1000, burstLimit: 2000 } */
  readonly throttle?: { readonly rateLimit: number; readonly burstLimit: number };
  /**
   * The edge firewall: this web ACL (`EdgeFirewallStack`, in us-east-1) on the front door. Needs an explicit account
   * and region, and `crossRegionReferences` on both stacks. Unset: no web ACL.
   */
  readonly edgeFirewall?: { readonly webAclArn: string };
  /**
   * `false` replaces each bundled handler with an inline stand-in so that stack assertion tests
   * synthesize without running esbuild. Every other property of the function is unchanged.
   * Never set it for a deployment. @default true
   */
  readonly bundle?: boolean;
}

/**
 * The origins whose pages upload to the release bucket by presigned PUT: the dashboard's. With a front door it serves
 * the dashboard itself, so `dashboardUrl` (a dashboard hosted elsewhere) joins its origin rather than replacing it. The
 * front door's own address is known at synthesis only as a custom domain: the distribution's `*.cloudfront.net` name
 * depends on the bucket (its origin), so the bucket cannot name it; any origin is allowed then, safely, since only a
 * presigned URL grants access.
 */
function uploadOrigins(props: LicensingStackProps, withFrontDoor: boolean): string[] | undefined {
  if (!props.dashboardUrl) return undefined;
  const dashboard = new URL(props.dashboardUrl).origin;
  if (!withFrontDoor) return [dashboard];
  return props.customDomain ? [...new Set([dashboard, `https://${props.customDomain.domainName}`])] : undefined;
}

export class LicensingStack extends Stack {
  readonly table: Table;
  readonly api: HttpApi;
  readonly stage: HttpStage;
  /** One function per surface; later constructs (queues, schedules) attach to these. */
  readonly functions: Record<Surface, LambdaFunction>;
  /** Release ZIP files, reached only through presigned URLs. */
  readonly releaseBucket: ReleaseBucket;
  /** The KMS key of payment-provider secrets. */
  readonly providerSecretsKey: ProviderSecretsKey;
  /** The key of portal download links. */
  readonly downloadLinkKey: DownloadLinkKey;
  /** The OAuth clients (ids and references to their secrets) of sign-in with Google and GitHub. */
  readonly oauthClients: OAuthClients;
  /** Outbound webhooks: delivery queue, dead-letter queue and alarm, fan-out and dispatcher functions. */
  readonly webhookDelivery: WebhookDelivery;
  /** E-mails (license e-mails, address verifications): mail queue, dead-letter queue and alarm, and the SES sender. */
  readonly mailDelivery: MailDelivery;
  /** Usage events: their queue, dead-letter queue and alarm, and the writer that stores them in batches. */
  readonly usageEvents: UsageEvents;
  /** The scheduled license expiry sweep. */
  readonly expirySweep: ExpirySweep;
  readonly leaseExpiry: LeaseExpiry;
  /** The secret header by which the functions know a request came through the front door; only with it. */
  readonly originVerify?: OriginVerify;
  /** The one CloudFront distribution: the dashboard, every service path and release files; absent with `dashboard: false`. */
  readonly frontDoor?: FrontDoor;
  /** Account exports: their bucket, queue, dead-letter queue and alarm, and the worker that writes them. */
  readonly accountExports: AccountExports;
  /** Imports: their queue, dead-letter queue and alarm, and the worker that writes them. */
  readonly accountImports: AccountImports;
  /** Every function of the stack by its service name (Powertools `service`, alarm names, dashboard labels). */
  readonly allFunctions: Record<string, LambdaFunction>;
  readonly accessLogs: ApiAccessLogs;
  readonly alarmTopic: AlarmTopic;
  readonly alarms: ServiceAlarms;
  /** Looks at the front door from the outside and at every dead-letter queue every 5 minutes; its alarm is theirs. */
  readonly healthCheck: HealthCheck;
  readonly dashboard: ServiceDashboard;
  /** The custom domain on the HTTP API: only with `customDomain` and `dashboard: false`. */
  readonly customDomain?: CustomDomain;
  /** The custom domain's alias records, to the front door or the API's domain: only with its hosted zone. */
  readonly serviceRecords?: ServiceRecords;

  constructor(scope: Construct, id: string, props: LicensingStackProps = {}) {
    super(scope, id, props);
    const withFrontDoor = props.dashboard !== false;
    if (props.edgeFirewall && !withFrontDoor) {
      throw new Error('The edge firewall is a web ACL on the front door (CloudFront), which dashboard: false leaves out');
    }
    if (props.edgeFirewall && (Token.isUnresolved(this.account) || Token.isUnresolved(this.region))) {
      throw new Error(
        'The edge firewall needs an explicit account and region (-c account=… -c region=…): its web ACL lives in ' +
          'us-east-1 and reaches this stack by a cross-region reference',
      );
    }
    // Strong (CDK's export writer and reader): the us-east-1 stacks (web ACL, certificate) cannot be deleted while
    // the distribution uses what they hold. Set before any child exists, as context must be.
    if (props.crossRegionReferences) CrossStackReferences.of(this).consume(ReferenceStrength.STRONG);

    this.table = serviceTable(this);
    new TableDeletionProtection(this, 'TableDeletionProtection', this.table);

    if (!props.mailFrom && props.allowDefaultMailFrom) {
      Annotations.of(this).addWarningV2('licensing:mailFrom', `mailFrom is not set: e-mails (licenses, address verification) go from ${DEFAULT_MAIL_FROM}, which SES refuses (docs/deploy.md)`);
    }
    const mailFrom = props.mailFrom ? settingValue(this, props.mailFrom) : props.allowDefaultMailFrom ? DEFAULT_MAIL_FROM : requiredMailFrom(this);
    // What every function gets; each reads its own settings beside it (FUNCTION_CONFIG_SECTIONS, set further down).
    const environment: Record<string, string> = { RUNTIME: 'aws' };

    this.releaseBucket = new ReleaseBucket(this, 'ReleaseBucket', { corsOrigins: uploadOrigins(props, withFrontDoor) });
    if (props.dashboardUrl && withFrontDoor) {
      Annotations.of(this).addWarningV2(
        'licensing:dashboardUrl',
        `dashboardUrl ${props.dashboardUrl} is where sign-ins land and the one origin given credentialed CORS, while the front door serves ` +
          'the dashboard at its own address: set it only for a dashboard you host there yourself (docs/deploy.md, Settings)',
      );
    }

    this.providerSecretsKey = new ProviderSecretsKey(this, 'ProviderSecretsKey');
    this.downloadLinkKey = new DownloadLinkKey(this, 'DownloadLinkKey');
    this.oauthClients = new OAuthClients(this, 'OAuthClients', props.oauth);

    // STRIPE_API_URL and the OAuth providers' addresses are never set here: the functions use the providers' own.
    const functions = {} as Record<Surface, LambdaFunction>;
    for (const surface of SURFACES) {
      const settings = SURFACE_SETTINGS[surface];
      const fn = serviceFunction(this, `${pascalCase(surface)}Function`, {
        entry: HANDLER_ENTRIES[surface],
        memorySize: settings.memorySize,
        timeout: settings.timeout,
        environment,
        bundle: props.bundle ?? true,
        assets: settings.assets,
      });
      if (settings.table) bindTable(fn, this.table, settings.table);
      if (settings.bucket) bindBucket(fn, this.releaseBucket.bucket, settings.bucket);
      if (settings.providerSecrets) this.providerSecretsKey.bind(fn, settings.providerSecrets);
      if (settings.downloadLinks) this.downloadLinkKey.bind(fn);
      if (settings.oauthClients) this.oauthClients.bind(fn);
      functions[surface] = fn;
    }
    this.functions = functions;
    // Before anything with a dead-letter queue: each registers its queue with it (`deadLetterAlarm`).
    this.healthCheck = new HealthCheck(this, { environment, bundle: props.bundle ?? true });
    this.webhookDelivery = new WebhookDelivery(this, 'WebhookDelivery', {
      table: this.table,
      management: functions.management,
      environment,
      bundle: props.bundle ?? true,
    });
    // The dispatcher signs each delivery with its webhook's secret, sealed like the vendors' other secrets.
    this.providerSecretsKey.bind(this.webhookDelivery.dispatcher, SECRET_ACCESS.webhookDispatcher);

    this.mailDelivery = new MailDelivery(this, 'MailDelivery', { table: this.table, mailFrom, environment, bundle: props.bundle ?? true });
    this.mailDelivery.grantEnqueue(this.webhookDelivery.fanOut);
    this.mailDelivery.grantEnqueue(this.webhookDelivery.sweep.function);

    // The public function queues usage events; both it and the edge queue the first check of a day of an install.
    this.usageEvents = new UsageEvents(this, 'UsageEvents', { table: this.table, environment, bundle: props.bundle ?? true });
    this.usageEvents.grantSend(functions.public);
    this.usageEvents.grantSend(functions.edge);

    this.expirySweep = new ExpirySweep(this, 'ExpirySweep', { table: this.table, environment, bundle: props.bundle ?? true });
    this.leaseExpiry = new LeaseExpiry(this, 'LeaseExpiry', { table: this.table, environment, bundle: props.bundle ?? true });

    this.accountExports = new AccountExports(this, 'AccountExports', {
      table: this.table,
      accessLogBucket: this.releaseBucket.accessLogBucket,
      environment,
      bundle: props.bundle ?? true,
    });
    this.accountExports.grantStart(functions.management);
    this.accountImports = new AccountImports(this, 'AccountImports', {
      table: this.table,
      bucket: this.releaseBucket.bucket,
      environment,
      bundle: props.bundle ?? true,
    });
    this.accountImports.grantEnqueue(functions.management);

    this.allFunctions = {
      ...functions,
      'outbox-fanout': this.webhookDelivery.fanOut,
      'webhook-dispatcher': this.webhookDelivery.dispatcher,
      'mail-sender': this.mailDelivery.sender,
      'usage-event-writer': this.usageEvents.writer,
      'expiry-sweep': this.expirySweep.function,
      'lease-expiry': this.leaseExpiry.function,
      'outbox-sweep': this.webhookDelivery.sweep.function,
      'export-worker': this.accountExports.worker,
      'import-worker': this.accountImports.worker,
      'health-check': this.healthCheck.function,
    };
    for (const [name, fn] of Object.entries(this.allFunctions)) {
      // Read by Powertools Logger and Metrics in the handlers. The namespace is the stack's name, so the stages
      // in one account keep their metrics apart.
      fn.addEnvironment('POWERTOOLS_SERVICE_NAME', name);
      fn.addEnvironment('POWERTOOLS_METRICS_NAMESPACE', this.stackName);
      acknowledgeFunctionFindings(fn);
    }

    // The functions answer OPTIONS themselves (credentialed CORS for the dashboard only), so the
    // API has no CORS configuration: API Gateway's would answer preflights before they arrive.
    this.api = new HttpApi(this, 'HttpApi', { apiName: this.stackName, createDefaultStage: false });
    const throttle = props.throttle ?? { rateLimit: 1000, burstLimit: 2000 };
    this.accessLogs = new ApiAccessLogs(this, 'ApiAccessLogs');
    this.stage = new HttpStage(this, 'DefaultStage', {
      httpApi: this.api,
      stageName: '$default',
      autoDeploy: true,
      throttle,
      accessLogSettings: this.accessLogs.settings,
    });
    if (props.customDomain && !withFrontDoor) this.customDomain = new CustomDomain(this, 'CustomDomain', { ...props.customDomain, api: this.api, stage: this.stage });

    // One integration per surface, shared by that surface's routes.
    const integrations = new Map<Surface, HttpLambdaIntegration>();
    const integrationFor = (surface: Surface) => {
      let integration = integrations.get(surface);
      if (!integration) {
        integration = new HttpLambdaIntegration(`${pascalCase(surface)}Integration`, functions[surface], {
          payloadFormatVersion: PayloadFormatVersion.VERSION_2_0,
        });
        integrations.set(surface, integration);
      }
      return integration;
    };
    for (const route of ROUTES) {
      this.api.addRoutes({
        path: route.path,
        methods: [HttpMethod[route.method]],
        integration: integrationFor(route.surface),
      });
    }
    // After the routes: a suppression reaches the children that exist when it is added.
    NagSuppressions.addResourceSuppressions(
      this.api,
      [{ id: 'AwsSolutions-APIG4', reason: 'Each function authenticates its own surface (session cookie or sk_ key, public_key, or none for plugins): the routes are open by design' }],
      true,
    );

    if (withFrontDoor) {
      // The execute-api address stays on: it is the front door's origin (API Gateway's switch to turn it off would
      // refuse CloudFront too). What comes to it directly, without the origin secret, the functions refuse (403).
      this.originVerify = new OriginVerify(this, 'OriginVerify');
      this.originVerify.trustedBy(Object.values(functions));
      // Id of the dashboard's distribution before it was the front door: a new id would give it a new address.
      this.frontDoor = new FrontDoor(this, 'DashboardSite', {
        api: this.api,
        originVerify: this.originVerify,
        releaseBucket: this.releaseBucket.bucket,
        accessLogBucket: this.releaseBucket.accessLogBucket,
        webAclArn: props.edgeFirewall?.webAclArn,
        originSecretRotation: props.originSecretRotation,
        priceClass: props.priceClass ?? PriceClass.PRICE_CLASS_100,
        domain: props.customDomain && frontDoorDomain(this, props.customDomain),
        bundle: props.bundle ?? true,
      });
      // Downloads are presigned for the bucket and handed out on the front door, which passes them to it.
      for (const surface of ['edge', 'portal'] as const) functions[surface].addEnvironment('RELEASE_FILES_URL', this.frontDoor.url);
    }
    const hostedZone = props.customDomain?.hostedZone;
    const recordTarget = this.frontDoor ? RecordTarget.fromAlias(new CloudFrontTarget(this.frontDoor.distribution)) : this.customDomain?.aliasTarget;
    if (props.customDomain && hostedZone && recordTarget) {
      this.serviceRecords = new ServiceRecords(this, 'ServiceRecords', { domainName: props.customDomain.domainName, hostedZone, target: recordTarget, ipv6: withFrontDoor });
    }
    if (this.frontDoor) {
      // The functions refuse what does not come through the front door from their update on: they wait until the name
      // points at it (or, without a zone here, until it is deployed), so that moving from dashboard=false refuses only
      // the calls of resolvers still holding the old answer, for the minute of its TTL (docs/deploy.md, "New accounts").
      for (const fn of Object.values(functions)) fn.node.addDependency(...(this.serviceRecords?.records ?? [this.frontDoor.distribution]));
    }
    const publicBaseUrl = props.publicBaseUrl ? settingValue(this, props.publicBaseUrl) : (this.frontDoor?.url ?? this.customDomain?.url);
    const dashboardUrl = props.dashboardUrl ?? this.frontDoor?.url;
    this.setSettings({
      links: publicBaseUrl === undefined ? undefined : { PUBLIC_BASE_URL: publicBaseUrl },
      dashboard: dashboardUrl === undefined ? undefined : { DASHBOARD_URL: dashboardUrl },
      // A deployment on the internet is the vendor's own: nobody else registers unless the vendor opens it.
      registration: { REGISTRATION: props.registration ?? 'invite' },
    });
    // The renewal reminders' links: the service's address, the API's own without a front door (no request to take it from).
    this.expirySweep.function.addEnvironment('PUBLIC_BASE_URL', publicBaseUrl ?? this.api.apiEndpoint);

    if (this.frontDoor) this.healthCheck.watchFrontDoor({ url: this.frontDoor.url, releaseBucket: this.releaseBucket.bucket });

    this.alarmTopic = new AlarmTopic(this, 'AlarmTopic', { topicName: `${this.stackName}-alarms`, email: props.alarmEmail });
    this.alarms = new ServiceAlarms(this, 'Alarms', {
      namePrefix: this.stackName,
      metricsNamespace: this.stackName,
      topic: this.alarmTopic,
      api: this.api,
      frontDoor: withFrontDoor,
    });
    // Every dead-letter queue's alarm is the health check's (infra/constructs/queue-with-dead-letters.ts).
    this.alarmTopic.notify(this.healthCheck.alarm);
    this.dashboard = new ServiceDashboard(this, 'Dashboard', {
      // Dashboards are the account's, not the region's: the same stage in a second region needs a name of its own.
      dashboardName: `${this.stackName}-${this.region}`,
      metricsNamespace: this.stackName,
      api: this.api,
      functions: this.allFunctions,
      edgeFunction: functions.edge,
      streamConsumer: this.webhookDelivery.fanOut,
      distribution: this.frontDoor?.distribution,
      deadLetterQueues: {
        Webhook: this.webhookDelivery.deadLetterQueue,
        'Outbox stream': this.webhookDelivery.streamDeadLetterQueue,
        Mail: this.mailDelivery.deadLetterQueue,
        'Usage event': this.usageEvents.deadLetterQueue,
        Export: this.accountExports.deadLetterQueue,
        Import: this.accountImports.deadLetterQueue,
      },
      alarms: [this.healthCheck.alarm, ...this.alarms.alarms],
    });

    this.outputs({ publicBaseUrl, dashboardUrl, cnameForFrontDoor: Boolean(props.customDomain && !props.customDomain.hostedZone) });
  }

  /**
   * The settings a vendor chooses, each on the surfaces that read it (`FUNCTION_CONFIG_SECTIONS`): a bad value then
   * stops only those. The OAuth clients go with their own grants (`OAuthClients.bind`), the sender address with the
   * mail sender (`MailDelivery`).
   */
  private setSettings(sections: Partial<Record<ConfigSection, Record<string, string>>>): void {
    for (const [surface, fn] of Object.entries(this.functions)) {
      const read: readonly ConfigSection[] = FUNCTION_CONFIG_SECTIONS[surface as keyof typeof FUNCTION_CONFIG_SECTIONS] ?? [];
      for (const section of read) for (const [variable, value] of Object.entries(sections[section] ?? {})) fn.addEnvironment(variable, value);
    }
  }

  /** What a vendor needs after a deployment: where the service is, what to tell Stripe, and where to look. */
  private outputs(props: { publicBaseUrl: string | undefined; dashboardUrl: string | undefined; cnameForFrontDoor: boolean }): void {
    const { publicBaseUrl } = props;
    const serviceUrl = this.frontDoor?.url ?? this.customDomain?.url;
    new CfnOutput(this, 'ApiUrl', {
      value: serviceUrl ? `${serviceUrl}/` : this.stage.url,
      description: 'Base URL of the service: the front door (the custom domain when there is one), or without it the HTTP API',
    });
    if (props.dashboardUrl) new CfnOutput(this, 'DashboardUrl', { value: `${props.dashboardUrl}/`, description: 'The vendor dashboard (its /api/* is the management API)' });
    // Without the zone in Route 53, the vendor points the name at the front door (or the API's regional name) in their DNS.
    const cnameTarget = this.frontDoor
      ? props.cnameForFrontDoor
        ? this.frontDoor.distribution.distributionDomainName
        : undefined
      : this.customDomain && !this.serviceRecords
        ? this.customDomain.target
        : undefined;
    if (cnameTarget) new CfnOutput(this, 'CustomDomainTarget', { value: cnameTarget, description: 'Point the custom domain here (CNAME) in your DNS' });
    // The links the service generates use PUBLIC_BASE_URL when it is set (the front door or a custom domain sets it), else the address called.
    const linkBase = publicBaseUrl === undefined ? this.api.apiEndpoint : Token.isUnresolved(publicBaseUrl) ? publicBaseUrl : publicBaseUrl.replace(/\/+$/, '');
    new CfnOutput(this, 'StripeWebhookUrl', {
      value: `${linkBase}/v1/webhooks/stripe/{userId}`,
      description: "The endpoint to register in each vendor's Stripe account, {userId} being the vendor's user id (GET /api/payment-provider answers it whole)",
    });
    new CfnOutput(this, 'ReleaseBucketName', { value: this.releaseBucket.bucket.bucketName, description: 'Release ZIP files (retained with the stack)' });
    new CfnOutput(this, 'TableName', { value: this.table.tableName, description: 'The DynamoDB table' });
    if (this.originVerify) {
      new CfnOutput(this, 'OriginSecretArn', { value: this.originVerify.secret.secretArn, description: 'The secret CloudFront sends to the API: rotate it as docs/deploy.md says' });
    }
    new CfnOutput(this, 'AlarmTopicArn', { value: this.alarmTopic.topic.topicArn, description: 'Every alarm reports here: subscribe more addresses or a chat hook' });
    new CfnOutput(this, 'DashboardName', { value: this.dashboard.dashboard.dashboardName, description: 'The CloudWatch dashboard' });
  }
}
