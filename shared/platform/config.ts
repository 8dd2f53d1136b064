import * as z from 'zod/mini';
import en from 'zod/v4/locales/en.js';

// zod/mini loads no locale: English (as in shared/platform/http/validation.ts), so that a refused environment says what is wrong.
z.config(en());

/** OWASP's scrypt cost, N = 2^17 (with r=8, p=1): what every deployment hashes passwords with. */
export const PASSWORD_HASH_COST = 17;

/** Who may register on a deployment (DECISIONS §20). */
export const REGISTRATION_MODES = ['open', 'invite'] as const;
export type RegistrationMode = (typeof REGISTRATION_MODES)[number];

/** The sender when none is configured: fine locally; in AWS, SES refuses it until `mailFrom` names a verified identity. */
export const DEFAULT_MAIL_FROM = 'no-reply@example.com';

/**
 * The field rules several settings share, each built once: a zod schema costs tens of microseconds to build, and every
 * function builds this schema at its cold start (a schema is immutable, so fields can share one).
 */
const optionalUrl = z.optional(z.url());
const optionalHttpUrl = z.optional(z.url({ protocol: /^https?$/ }));
const optionalName = z.optional(z.string().check(z.minLength(1)));
const optionalKey = z.optional(z.string().check(z.regex(/^[A-Za-z0-9+/]{43}=$/, 'must be base64 of 32 bytes')));

/**
 * What every function reads, checked once when a container starts. The stack sets these itself (names, ARNs,
 * queue URLs, the origin secret) or they are the local runtime's: nothing here is a value a vendor types, so
 * nothing here can be wrong in one deployment and not another.
 */
const coreSchema = z.object({
  /** `local` enables the local-only routes and plain-http webhook targets. */
  RUNTIME: z._default(z.enum(['aws', 'local']), 'aws'),
  AWS_REGION: z._default(z.string().check(z.minLength(1)), 'us-east-1'),
  TABLE_NAME: z.string().check(z.minLength(1)),
  BUCKET_NAME: optionalName,
  /** Account exports (DECISIONS §16): their bucket and the queue of the worker that writes them. */
  EXPORT_BUCKET_NAME: optionalName,
  EXPORT_QUEUE_URL: optionalUrl,
  /** The queue of e-mails to send (SQS; locally the in-process queue's endpoint). */
  MAIL_QUEUE_URL: optionalUrl,
  DYNAMODB_ENDPOINT: optionalUrl,
  S3_ENDPOINT: optionalUrl,
  SES_ENDPOINT: optionalUrl,
  /** Webhook delivery queue and its dead-letter queue (SQS; locally the in-process queue's endpoint). */
  QUEUE_URL: optionalUrl,
  DEAD_LETTER_QUEUE_URL: optionalUrl,
  SQS_ENDPOINT: optionalUrl,
  /** Tests only: a stand-in for Secrets Manager (the OAuth client secrets' and the origin secret's reads). */
  SECRETS_MANAGER_ENDPOINT: optionalUrl,
  /** Tests only: a stand-in for SSM (the download-link key's parameter). */
  SSM_ENDPOINT: optionalUrl,
  /** Multiplies every webhook retry delay; 0.0001 runs the whole schedule in seconds (tests). */
  WEBHOOK_RETRY_SCALE: z._default(z.pipe(z.string().check(z.regex(/^\d+(\.\d+)?$/)), z.transform(Number)), 1),
  /** `on` refuses private, loopback and metadata webhook targets outside AWS too (always on in AWS). */
  WEBHOOK_ADDRESS_GUARD: z.optional(z.enum(['on', 'off'])),
  /**
   * The secret the front door sends as `x-origin-verify` (locally: the gateway): set, the HTTP functions refuse a
   * request without it (`shared/platform/http/front-door.ts`) and trust `cloudfront-viewer-address` on one with it.
   */
  ORIGIN_VERIFY_TOKEN: optionalName,
  /**
   * In AWS, the Secrets Manager secret that holds it instead (its current and, during a rotation, previous value), read
   * at run time: the value itself is in no function's configuration.
   */
  ORIGIN_VERIFY_SECRET_ARN: optionalName,
  /** Multiplies every rate limit's size and refill rate (DECISIONS §12); 0 turns the limits off. */
  RATE_LIMIT_SCALE: z._default(z.pipe(z.string().check(z.regex(/^\d+(\.\d+)?$/, 'must be a number ≥ 0')), z.transform(Number)), 1),
  /**
   * Local runtime only: log2 of the scrypt cost of new password hashes, 10–17 (default 17, as in AWS). The tests' stack
   * lowers it, since every test registers an account of its own; a lowered cost outside the local runtime is refused.
   */
  PASSWORD_HASH_COST: z.optional(z.pipe(z.string().check(z.regex(/^(1[0-7])$/, 'must be a whole number from 10 to 17')), z.transform(Number))),
  /** The queue of accepted usage events and installs seen, drained by the usage event writer (SQS; locally the in-process queue's endpoint). */
  USAGE_QUEUE_URL: optionalUrl,
  /** Days that feedback, usage events and deactivation reasons are kept (their TTL); daily counts stay. */
  ANALYTICS_RETENTION_DAYS: z._default(z.pipe(z.string().check(z.regex(/^[1-9]\d{0,3}$/, 'must be a whole number of days from 1 to 9999')), z.transform(Number)), 90),
  /** The queue of import jobs, drained by the import worker (SQS; locally the in-process queue's endpoint). */
  IMPORT_QUEUE_URL: optionalUrl,
  /** Base of the Stripe API; tests point it at a fake. Never set in AWS. */
  STRIPE_API_URL: optionalHttpUrl,
  /** The KMS key that wraps the data keys of stored payment-provider secrets (AWS). */
  PROVIDER_KEY_ID: optionalName,
  /** Local runtime only: base64 of the 32-byte key that seals payment-provider secrets in place of KMS. */
  LOCAL_PROVIDER_KEY: optionalKey,
  /** The SSM parameter of the key that signs portal download links (`/dl`), made on first use, read once per container (AWS). */
  DOWNLOAD_LINK_PARAMETER: optionalName,
  /** Local runtime only: base64 of the 32-byte key that signs portal download links. */
  LOCAL_DOWNLOAD_LINK_KEY: optionalKey,
  /**
   * Where release files are fetched through the front door (`https://<front door>`): download URLs are presigned
   * for the bucket and sent there, which passes them to S3 unchanged. Unset: straight to the bucket.
   */
  RELEASE_FILES_URL: optionalHttpUrl,
});


/**
 * Settings a vendor chooses (some from SSM, so unchecked until a container reads them), each parsed only by the
 * functions that use it: a malformed sender address stops the mail sender, not every function at its cold start.
 * Each schema is built by the function that reads its section, so a cold start builds no other's (issue 26).
 */
const sectionSchemas = {
  /** Base of generated links (update-check `package`, downloads, checkout and OAuth callbacks). */
  links: () => z.object({ PUBLIC_BASE_URL: optionalUrl }),
  /** The dashboard's origin: allowed to send the session cookie and to receive credentialed CORS answers. */
  dashboard: () => z.object({ DASHBOARD_URL: optionalUrl }),
  /**
   * Who may create an account (DECISIONS §20): `open`, anyone; `invite`, the deployment's first account and addresses
   * holding a pending invitation. Unset: `open` in the local runtime (`npm start`), `invite` in AWS (the stack sets it).
   */
  registration: () => z.object({ REGISTRATION: z.optional(z.enum(REGISTRATION_MODES)) }),
  /** Sender address of the service's e-mails: in AWS an SES identity (verified address or domain). */
  mail: () =>
    z.object({
      MAIL_FROM: z._default(z.email('must be a bare e-mail address (no display name): the vendor’s name is added per message'), DEFAULT_MAIL_FROM),
    }),
  // OAuth sign-in (DECISIONS §1, §11). A provider is configured when it has a client id and a secret: the secret
  // itself (`*_CLIENT_SECRET`, the local runtime), or the Secrets Manager secret that holds it (`*_CLIENT_SECRET_ID`,
  // name or ARN, set by the stack: the template never holds the secret). Endpoints default to the providers' own.
  oauth: () => {
    /** An OAuth provider's endpoint: the provider's own by default, a fake on this machine in tests. */
    const providerUrl = z.url({ protocol: /^https?$/ });
    return z.object({
      GOOGLE_CLIENT_ID: z.optional(z.string()),
      GOOGLE_CLIENT_SECRET: z.optional(z.string()),
      GOOGLE_CLIENT_SECRET_ID: z.optional(z.string()),
      GOOGLE_AUTH_URL: z._default(providerUrl, 'https://accounts.google.com/o/oauth2/v2/auth'),
      GOOGLE_TOKEN_URL: z._default(providerUrl, 'https://oauth2.googleapis.com/token'),
      GOOGLE_USERINFO_URL: z._default(providerUrl, 'https://openidconnect.googleapis.com/v1/userinfo'),
      GITHUB_CLIENT_ID: z.optional(z.string()),
      GITHUB_CLIENT_SECRET: z.optional(z.string()),
      GITHUB_CLIENT_SECRET_ID: z.optional(z.string()),
      GITHUB_AUTH_URL: z._default(providerUrl, 'https://github.com/login/oauth/authorize'),
      GITHUB_TOKEN_URL: z._default(providerUrl, 'https://github.com/login/oauth/access_token'),
      /** The service reads `/user` and `/user/emails` under it. */
      GITHUB_API_URL: z._default(providerUrl, 'https://api.github.com'),
    });
  },
};

/** The settings parsed only where used (see `sectionSchemas`). */
export type ConfigSection = keyof typeof sectionSchemas;

export type CoreConfig = {
  runtime: 'aws' | 'local';
  region: string;
  tableName: string;
  bucketName?: string;
  exports: { bucketName?: string; queueUrl?: string };
  mail: { queueUrl?: string };
  endpoints: { dynamodb?: string; s3?: string; ses?: string; sqs?: string; secretsManager?: string; ssm?: string };
  webhooks: { queueUrl?: string; deadLetterQueueUrl?: string; retryScale: number; addressGuard: boolean };
  /** Set when the API is reached through the front door only (`shared/platform/http/front-door.ts`, `shared/platform/http/client-address.ts`). */
  originVerifyToken?: string;
  /** The same, kept in Secrets Manager (AWS). */
  originVerifySecretArn?: string;
  rateLimitScale: number;
  /** log2 of scrypt's N for new password hashes (shared/identity/accounts/passwords.ts). */
  passwordHashCost: number;
  analytics: { retentionDays: number; queueUrl?: string };
  imports: { queueUrl?: string };
  payments: { stripeApiUrl?: string; providerKeyId?: string; localProviderKey?: string };
  downloadLinks: { parameterName?: string; localKey?: string; releaseFilesUrl?: string };
};

/** Each field is present (`undefined` when unset), so a function that did not read its section cannot pass for one that did. */
type SectionConfigs = {
  links: { publicBaseUrl: string | undefined };
  dashboard: { dashboardUrl: string | undefined };
  registration: { registration: RegistrationMode };
  mail: { mailFrom: string };
  oauth: { oauth: { google: OAuthClientConfig<'authUrl' | 'tokenUrl' | 'userinfoUrl'>; github: OAuthClientConfig<'authUrl' | 'tokenUrl' | 'apiUrl'> } };
};

/** What a function reads: the core, and the sections it named. `Config` alone is every section (tests, tools). */
export type Config<S extends ConfigSection = ConfigSection> = CoreConfig & UnionToIntersection<SectionConfigs[S]>;
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/**
 * One OAuth client of the service. Configured when it has `clientId` and either `clientSecret` (the value) or
 * `clientSecretId` (the Secrets Manager secret holding it, read once per container).
 */
export type OAuthClientConfig<E extends string> = {
  clientId?: string;
  clientSecret?: string;
  clientSecretId?: string;
  endpoints: Record<E, string>;
};

/** An empty variable is an unset one: `GOOGLE_CLIENT_ID=` in a shell turns the provider off, not the function. */
const unlessEmpty = (value: string | undefined) => value?.trim() || undefined;
const withoutTrailingSlash = (url: string | undefined) => url?.replace(/\/+$/, '');

/** Only the local runtime may hash passwords below OWASP's cost. */
function passwordHashCost(runtime: 'aws' | 'local', cost: number | undefined): number {
  if (cost === undefined || cost === PASSWORD_HASH_COST) return PASSWORD_HASH_COST;
  if (runtime !== 'local') throw new Error(`PASSWORD_HASH_COST is for the local runtime only: in AWS passwords are hashed at ${PASSWORD_HASH_COST}`);
  return cost;
}

const sectionReaders: { [S in ConfigSection]: (env: NodeJS.ProcessEnv) => SectionConfigs[S] } = {
  links: (env) => ({ publicBaseUrl: withoutTrailingSlash(sectionSchemas.links().parse(env).PUBLIC_BASE_URL) }),
  dashboard: (env) => ({ dashboardUrl: withoutTrailingSlash(sectionSchemas.dashboard().parse(env).DASHBOARD_URL) }),
  registration: (env) => ({ registration: sectionSchemas.registration().parse(env).REGISTRATION ?? (env.RUNTIME === 'local' ? 'open' : 'invite') }),
  mail: (env) => ({ mailFrom: sectionSchemas.mail().parse(env).MAIL_FROM }),
  oauth: (env) => {
    const parsed = sectionSchemas.oauth().parse(env);
    return {
      oauth: {
        google: {
          clientId: unlessEmpty(parsed.GOOGLE_CLIENT_ID),
          clientSecret: unlessEmpty(parsed.GOOGLE_CLIENT_SECRET),
          clientSecretId: unlessEmpty(parsed.GOOGLE_CLIENT_SECRET_ID),
          endpoints: { authUrl: parsed.GOOGLE_AUTH_URL, tokenUrl: parsed.GOOGLE_TOKEN_URL, userinfoUrl: parsed.GOOGLE_USERINFO_URL },
        },
        github: {
          clientId: unlessEmpty(parsed.GITHUB_CLIENT_ID),
          clientSecret: unlessEmpty(parsed.GITHUB_CLIENT_SECRET),
          clientSecretId: unlessEmpty(parsed.GITHUB_CLIENT_SECRET_ID),
          endpoints: { authUrl: parsed.GITHUB_AUTH_URL, tokenUrl: parsed.GITHUB_TOKEN_URL, apiUrl: parsed.GITHUB_API_URL.replace(/\/+$/, '') },
        },
      },
    };
  },
};

/**
 * The core settings, plus the named sections: each function names the ones it uses, so it neither parses nor
 * depends on the others (the stack gives it only those variables too).
 */
export function loadConfig<S extends ConfigSection = never>(env: NodeJS.ProcessEnv = process.env, sections: readonly S[] = []): Config<NoInfer<S>> {
  const parsed = coreSchema.parse(env);
  const core: CoreConfig = {
    runtime: parsed.RUNTIME,
    region: parsed.AWS_REGION,
    tableName: parsed.TABLE_NAME,
    bucketName: parsed.BUCKET_NAME,
    exports: { bucketName: parsed.EXPORT_BUCKET_NAME, queueUrl: parsed.EXPORT_QUEUE_URL },
    mail: { queueUrl: parsed.MAIL_QUEUE_URL },
    endpoints: {
      dynamodb: parsed.DYNAMODB_ENDPOINT,
      s3: parsed.S3_ENDPOINT,
      ses: parsed.SES_ENDPOINT,
      sqs: parsed.SQS_ENDPOINT,
      secretsManager: parsed.SECRETS_MANAGER_ENDPOINT,
      ssm: parsed.SSM_ENDPOINT,
    },
    webhooks: {
      queueUrl: parsed.QUEUE_URL,
      deadLetterQueueUrl: parsed.DEAD_LETTER_QUEUE_URL,
      retryScale: parsed.WEBHOOK_RETRY_SCALE,
      addressGuard: parsed.RUNTIME === 'aws' || parsed.WEBHOOK_ADDRESS_GUARD === 'on',
    },
    originVerifyToken: parsed.ORIGIN_VERIFY_TOKEN,
    originVerifySecretArn: parsed.ORIGIN_VERIFY_SECRET_ARN,
    rateLimitScale: parsed.RATE_LIMIT_SCALE,
    passwordHashCost: passwordHashCost(parsed.RUNTIME, parsed.PASSWORD_HASH_COST),
    analytics: { retentionDays: parsed.ANALYTICS_RETENTION_DAYS, queueUrl: parsed.USAGE_QUEUE_URL },
    imports: { queueUrl: parsed.IMPORT_QUEUE_URL },
    payments: { stripeApiUrl: parsed.STRIPE_API_URL, providerKeyId: parsed.PROVIDER_KEY_ID, localProviderKey: parsed.LOCAL_PROVIDER_KEY },
    downloadLinks: {
      parameterName: parsed.DOWNLOAD_LINK_PARAMETER,
      localKey: parsed.LOCAL_DOWNLOAD_LINK_KEY,
      releaseFilesUrl: withoutTrailingSlash(parsed.RELEASE_FILES_URL),
    },
  };
  return Object.assign(core, ...sections.map((section) => sectionReaders[section](env))) as Config<NoInfer<S>>;
}

/**
 * The sections each function reads beside the core: its handler parses these and the stack sets their variables
 * on it alone (test/infra/stack.test.ts holds the two together).
 */
export const FUNCTION_CONFIG_SECTIONS = {
  management: ['links', 'dashboard', 'oauth', 'registration'],
  edge: ['links'],
  public: ['links'],
  portal: ['links'],
  /** The service's address in license e-mails (the Composer repository's, DECISIONS §24; the portal's link, §25). */
  stripeWebhook: ['links'],
  mailSender: ['mail'],
  /** The renewal reminders' links. */
  expirySweep: ['links'],
} as const satisfies Record<string, readonly ConfigSection[]>;

/** Every section: for tools and tests that build any function's dependencies from one environment. */
export const ALL_CONFIG_SECTIONS = Object.keys(sectionSchemas) as ConfigSection[];
