import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CfnElement, Stack } from 'aws-cdk-lib';
import { Annotations, Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { cdkApp } from './support/app.js';
import { statementsOf } from './support/policies.js';
import { LicensingStack, type LicensingStackProps } from '../../infra/stack.js';
import { HANDLER_ENTRIES, ROUTES, SURFACES } from '../../infra/routes.js';
import { DEFAULT_MAIL_FROM, FUNCTION_CONFIG_SECTIONS } from '../../shared/platform/config.js';
import { GLOBAL_INDEXES, TABLE_KEYS } from '../../shared/platform/data/table-schema.js';

type Resource = { Type: string; Properties: Record<string, any>; DeletionPolicy?: string; UpdateReplacePolicy?: string };

// Every App synthesizes into a directory of its own; keep them all under one that is removed at the end.
const outRoot = mkdtempSync(join(tmpdir(), 'licensing-stack-test-'));
afterAll(() => rmSync(outRoot, { recursive: true, force: true }));
const newApp = () => cdkApp(mkdtempSync(join(outRoot, 'app-')));

/** Synthesizes without esbuild: the functions get an inline stand-in, everything else is real. */
function synth(props: LicensingStackProps = {}) {
  const stack = new LicensingStack(newApp(), 'LicensingService', { bundle: false, ...props });
  return { stack, template: Template.fromStack(stack) };
}

const { stack, template } = synth({
  dashboardUrl: 'https://dashboard.example.com',
  publicBaseUrl: 'https://licenses.example.com',
  mailFrom: 'licenses@example.com',
});

// Synthesized up front: a busy machine can take longer than a test's timeout per synthesis.
const bare = synth();
const pinned = synth({ env: { account: '123456789012', region: 'eu-west-1' } });

const logicalId = (s: Stack, construct: { node: { defaultChild?: unknown } }) =>
  s.getLogicalId(construct.node.defaultChild as CfnElement);
const tableId = logicalId(stack, stack.table);
const tableArn = { 'Fn::GetAtt': [tableId, 'Arn'] };
const indexArn = { 'Fn::Join': ['', [tableArn, '/index/*']] };

function only(type: string): [string, Resource] {
  const found = Object.entries(template.findResources(type)) as [string, Resource][];
  expect(found).toHaveLength(1);
  return found[0]!;
}

describe('table', () => {
  it('has the keys and indexes of table-schema.ts, all strings, each with its projection', () => {
    const [, table] = only('AWS::DynamoDB::Table');
    expect(table.Properties.KeySchema).toEqual([
      { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
      { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
    ]);
    expect(table.Properties.GlobalSecondaryIndexes).toEqual(
      GLOBAL_INDEXES.map((index) => ({
        IndexName: index.indexName,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection: { ProjectionType: index.projection.type },
      })),
    );
    const keyNames = [TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey, ...GLOBAL_INDEXES.flatMap((i) => [i.partitionKey, i.sortKey])];
    expect(table.Properties.AttributeDefinitions).toHaveLength(keyNames.length);
    expect(table.Properties.AttributeDefinitions).toEqual(
      expect.arrayContaining(keyNames.map((name) => ({ AttributeName: name, AttributeType: 'S' }))),
    );
  });

  it('is on-demand, with TTL, point-in-time recovery and a stream of new images', () => {
    const [, table] = only('AWS::DynamoDB::Table');
    expect(table.Properties).toMatchObject({
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: TABLE_KEYS.timeToLive, Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      StreamSpecification: { StreamViewType: 'NEW_IMAGE' },
    });
  });

  it('outlives the stack, protected from deletion, but not a failed first deployment, whose rollback deletes it', () => {
    const [tableId, table] = only('AWS::DynamoDB::Table');
    // Retained on the stack's deletion and on a replacement; deleted by a create's rollback, so a retry starts clean.
    expect([table.DeletionPolicy, table.UpdateReplacePolicy]).toEqual(['RetainExceptOnCreate', 'Retain']);
    // A protected table refuses that rollback's delete: protection comes on just after the table, from a resource the
    // rollback deletes first (which turns it off) and the stack's deletion keeps (so the table stays protected).
    expect(table.Properties).not.toHaveProperty('DeletionProtectionEnabled');
    const [, protection] = only('Custom::AWS');
    expect(protection.DeletionPolicy).toBe('RetainExceptOnCreate');
    // Each call is JSON joined around the table's name: read with the name as its Ref.
    const call = (event: 'Create' | 'Update' | 'Delete') =>
      JSON.parse((protection.Properties[event]['Fn::Join'][1] as unknown[]).map((part) => (typeof part === 'string' ? part : JSON.stringify(part).replace(/"/g, ''))).join(''));
    for (const [event, enabled] of [['Create', true], ['Update', true], ['Delete', false]] as const) {
      expect(call(event), event).toMatchObject({ service: 'DynamoDB', action: 'updateTable', parameters: { TableName: `{Ref:${tableId}}`, DeletionProtectionEnabled: enabled } });
    }
  });
});

describe('functions', () => {
  it('exist once per surface, plus the outbox fan-out and sweep, the webhook dispatcher, the mail sender, the usage event writer, the expiry sweep, the lease expiry job, the export and the import worker, the health check: nodejs22.x on arm64', () => {
    const others = [
      stack.webhookDelivery.fanOut, stack.webhookDelivery.sweep.function, stack.webhookDelivery.dispatcher, stack.mailDelivery.sender, stack.usageEvents.writer,
      stack.expirySweep.function,
      stack.leaseExpiry.function,
      stack.accountExports.worker,
      stack.accountImports.worker,
      stack.healthCheck.function,
    ];
    // Besides the dashboard's deployment machinery: CDK's function that copies the build into its bucket and the one
    // that retires stale assets (test/infra/front-door.test.ts); and CDK's function behind the table's deletion protection.
    const machinery = [logicalId(stack, stack.frontDoor!.dashboard.retirement.function)];
    const cdkOwn = (id: string) => id.startsWith('CustomCDKBucketDeployment') || id.startsWith('AWS679f53fac002430cb0da5b7982bd2287');
    const ours = Object.keys(template.findResources('AWS::Lambda::Function')).filter((id) => !cdkOwn(id) && !machinery.includes(id));
    expect(ours).toHaveLength(SURFACES.length + others.length);
    for (const surface of SURFACES) {
      const fn = template.toJSON().Resources[logicalId(stack, stack.functions[surface])] as Resource;
      expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], Timeout: 10 });
    }
    for (const other of others) {
      const fn = template.toJSON().Resources[logicalId(stack, other)] as Resource;
      expect(fn.Properties).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'] });
    }
  });

  it('give management 512 MB and its environment', () => {
    const fn = template.toJSON().Resources[logicalId(stack, stack.functions.management)] as Resource;
    expect(fn.Properties.MemorySize).toBe(512);
    expect(fn.Properties.Environment.Variables).toEqual({
      RUNTIME: 'aws',
      TABLE_NAME: { Ref: tableId },
      BUCKET_NAME: { Ref: logicalId(stack, stack.releaseBucket.bucket) },
      QUEUE_URL: { Ref: logicalId(stack, stack.webhookDelivery.queue) },
      EXPORT_QUEUE_URL: { Ref: logicalId(stack, stack.accountExports.queue) },
      EXPORT_BUCKET_NAME: { Ref: logicalId(stack, stack.accountExports.bucket) },
      IMPORT_QUEUE_URL: { Ref: logicalId(stack, stack.accountImports.queue) },
      PUBLIC_BASE_URL: 'https://licenses.example.com',
      DASHBOARD_URL: 'https://dashboard.example.com',
      REGISTRATION: 'invite',
      PROVIDER_KEY_ID: { 'Fn::GetAtt': [logicalId(stack, stack.providerSecretsKey.key), 'Arn'] },
      ORIGIN_VERIFY_SECRET_ARN: { Ref: logicalId(stack, stack.originVerify!.secret) },
      POWERTOOLS_SERVICE_NAME: 'management',
      POWERTOOLS_METRICS_NAMESPACE: 'LicensingService',
    });
  });

  it('give the Stripe webhook 512 MB, the table, the provider key and nothing of the bucket or queue, nor any setting it does not read (links: the portal link in license e-mails)', () => {
    const fn = template.toJSON().Resources[logicalId(stack, stack.functions.stripeWebhook)] as Resource;
    expect(fn.Properties.MemorySize).toBe(512);
    expect(Object.keys(fn.Properties.Environment.Variables).sort()).toEqual([
      'ORIGIN_VERIFY_SECRET_ARN',
      'POWERTOOLS_METRICS_NAMESPACE',
      'POWERTOOLS_SERVICE_NAME',
      'PROVIDER_KEY_ID',
      // The service's address in license e-mails: the Composer repository's (DECISIONS §24), the portal's (§25).
      'PUBLIC_BASE_URL',
      'RUNTIME',
      'TABLE_NAME',
    ]);
  });

  it('give each function only the settings it reads: the sender to the mail sender, links and the dashboard’s origin where they are built', () => {
    const variablesOf = (fn: { node: { defaultChild?: unknown } }) => (template.toJSON().Resources[logicalId(stack, fn)] as Resource).Properties.Environment.Variables as Record<string, unknown>;
    const readers = { ...stack.functions, mailSender: stack.mailDelivery.sender, expirySweep: stack.expirySweep.function };
    const given = Object.fromEntries(
      Object.entries(stack.allFunctions).map(([name, fn]) => [name, ['MAIL_FROM', 'PUBLIC_BASE_URL', 'DASHBOARD_URL', 'REGISTRATION'].filter((variable) => variable in variablesOf(fn))]),
    );
    const expected = Object.fromEntries(Object.keys(stack.allFunctions).map((name) => [name, [] as string[]]));
    for (const [name, sections] of Object.entries(FUNCTION_CONFIG_SECTIONS)) {
      const fnName = ({ mailSender: 'mail-sender', expirySweep: 'expiry-sweep' } as Record<string, string>)[name] ?? name;
      expected[fnName] = [
        ...(sections.some((section: string) => section === 'mail') ? ['MAIL_FROM'] : []),
        ...(sections.some((section: string) => section === 'links') ? ['PUBLIC_BASE_URL'] : []),
        ...(sections.some((section: string) => section === 'dashboard') ? ['DASHBOARD_URL'] : []),
        ...(sections.some((section: string) => section === 'registration') ? ['REGISTRATION'] : []),
      ];
    }
    expect(given).toEqual(expected);
    expect(Object.keys(readers)).toEqual(expect.arrayContaining(Object.keys(FUNCTION_CONFIG_SECTIONS)));
    expect(variablesOf(stack.mailDelivery.sender).MAIL_FROM).toBe('licenses@example.com');
  });

  it('close registration to invitations unless the deployment opens it (DECISIONS §20)', () => {
    const registrationOf = (synthesized: { stack: LicensingStack; template: Template }) =>
      (synthesized.template.toJSON().Resources[logicalId(synthesized.stack, synthesized.stack.functions.management)] as Resource).Properties.Environment.Variables.REGISTRATION;
    expect(registrationOf({ stack, template })).toBe('invite');
    expect(registrationOf(synth({ registration: 'open' }))).toBe('open');
  });

  it('ask for the sender at deployment when mailFrom is not set, with or without an account and region', () => {
    const senderOf = (s: typeof bare) => (s.template.toJSON().Resources[logicalId(s.stack, s.stack.mailDelivery.sender)] as Resource).Properties.Environment.Variables.MAIL_FROM;
    for (const unset of [bare, pinned]) {
      // A parameter without a default: `cdk deploy` stops before changing anything until it has a value.
      expect(senderOf(unset)).toEqual({ Ref: 'MailFrom' });
      expect(unset.template.toJSON().Parameters.MailFrom).toMatchObject({ Type: 'String', AllowedPattern: expect.any(String) });
      expect(unset.template.toJSON().Parameters.MailFrom).not.toHaveProperty('Default');
    }
    expect(template.toJSON().Parameters ?? {}).not.toHaveProperty('MailFrom');
    Annotations.fromStack(stack).hasNoWarning('*', Match.stringLikeRegexp('mailFrom'));
  });

  it('send from the default a trial deployment asks for, and warn that SES refuses it', () => {
    const trial = synth({ allowDefaultMailFrom: true });
    expect((trial.template.toJSON().Resources[logicalId(trial.stack, trial.stack.mailDelivery.sender)] as Resource).Properties.Environment.Variables.MAIL_FROM).toBe(DEFAULT_MAIL_FROM);
    expect(trial.template.toJSON().Parameters ?? {}).not.toHaveProperty('MailFrom');
    Annotations.fromStack(trial.stack).hasWarning('*', Match.stringLikeRegexp('mailFrom is not set'));
  });

  it('may touch the table and its indexes, and beyond them only what each surface needs', () => {
    // Services other than DynamoDB that each surface may use; their resources are checked in their own tests.
    // Every one reads the front door's secret (secretsmanager; test/infra/front-door.test.ts).
    const otherServices: Record<string, string[]> = {
      management: ['kms', 's3', 'secretsmanager', 'sqs'],
      edge: ['kms', 's3', 'secretsmanager', 'sqs'],
      public: ['kms', 'secretsmanager', 'sqs'],
      portal: ['kms', 's3', 'secretsmanager', 'ssm'],
      stripeWebhook: ['kms', 'secretsmanager'],
      docs: ['secretsmanager'],
    };
    for (const surface of SURFACES) {
      const roleId = logicalId(stack, stack.functions[surface].role!);
      const policies = Object.values(
        template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } }),
      ) as Resource[];
      expect(policies).toHaveLength(1);
      const statements = policies[0]!.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[];
      const actionsOf = (statement: { Action: string | string[] }) => [statement.Action].flat();
      const dynamo = statements.filter((statement) => actionsOf(statement).some((action) => action.startsWith('dynamodb:')));
      // The reference docs serve files from their own bundle: no table either.
      if (surface === 'docs') {
        expect(dynamo).toEqual([]);
        expect([...new Set(statements.flatMap(actionsOf).map((action) => action.split(':')[0]))]).toEqual(otherServices.docs);
        continue;
      }
      for (const statement of dynamo) {
        expect(actionsOf(statement).every((action) => action.startsWith('dynamodb:'))).toBe(true);
        expect(statement.Resource).toEqual([tableArn, indexArn]);
      }
      const services = new Set(statements.flatMap(actionsOf).map((action) => action.split(':')[0]));
      expect([...services].sort()).toEqual(['dynamodb', ...(otherServices[surface] ?? [])].sort());
      const actions = dynamo.flatMap(actionsOf);
      expect(actions).toEqual(expect.arrayContaining(['dynamodb:GetItem', 'dynamodb:Query', 'dynamodb:PutItem']));
      expect(actions).not.toContain('dynamodb:*');
      expect(actions).not.toContain('dynamodb:DeleteTable');
    }
  });

  it('seal secrets with one rotated, retained KMS key: management seals and opens, public, portal, the Stripe webhook and the edge open (which kinds: secret-grants.test.ts)', () => {
    const [keyId, key] = only('AWS::KMS::Key');
    expect(key.Properties.EnableKeyRotation).toBe(true);
    expect([key.DeletionPolicy, key.UpdateReplacePolicy]).toEqual(['RetainExceptOnCreate', 'Retain']);
    const keyArn = { 'Fn::GetAtt': [keyId, 'Arn'] };
    const kmsActions: Record<string, string[]> = {
      management: ['kms:Decrypt', 'kms:GenerateDataKey'],
      edge: ['kms:Decrypt'],
      public: ['kms:Decrypt'],
      portal: ['kms:Decrypt'],
      stripeWebhook: ['kms:Decrypt'],
      docs: [],
    };
    for (const surface of SURFACES) {
      const roleId = logicalId(stack, stack.functions[surface].role!);
      const policy = Object.values(template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } }))[0] as Resource | undefined;
      const statements = ((policy?.Properties.PolicyDocument.Statement ?? []) as { Action: string | string[]; Resource: unknown }[]).filter((statement) =>
        [statement.Action].flat().some((action) => action.startsWith('kms:')),
      );
      expect([surface, [...new Set(statements.flatMap((statement) => [statement.Action].flat()))].sort()]).toEqual([surface, kmsActions[surface]]);
      for (const statement of statements) expect(statement.Resource).toEqual(keyArn);
      const variables = (template.toJSON().Resources[logicalId(stack, stack.functions[surface])] as Resource).Properties.Environment.Variables;
      expect(variables.PROVIDER_KEY_ID).toEqual(kmsActions[surface]!.length ? keyArn : undefined);
      expect(variables.STRIPE_API_URL).toBeUndefined();
    }
  });

  it('give the portal alone the download-link key: its SSM parameter, named after the stack, which it reads or makes', () => {
    const parameterArn = { 'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':ssm:', { Ref: 'AWS::Region' }, ':', { Ref: 'AWS::AccountId' }, ':parameter/LicensingService/download-link-key']] };
    for (const surface of SURFACES) {
      const statements = statementsOf(stack, template, stack.functions[surface]).filter((statement) => [statement.Action].flat().some((action) => action.startsWith('ssm:')));
      const variables = (template.toJSON().Resources[logicalId(stack, stack.functions[surface])] as Resource).Properties.Environment.Variables;
      if (surface !== 'portal') {
        expect([surface, statements, variables.DOWNLOAD_LINK_PARAMETER]).toEqual([surface, [], undefined]);
        continue;
      }
      expect(statements).toEqual([{ Effect: 'Allow', Action: ['ssm:GetParameter', 'ssm:PutParameter'], Resource: parameterArn }]);
      expect(variables.DOWNLOAD_LINK_PARAMETER).toBe('/LicensingService/download-link-key');
    }
    // No secret of Secrets Manager but the front door's: $0.40 a month each (docs/cost.md).
    expect(Object.keys(template.findResources('AWS::SecretsManager::Secret'))).toEqual([logicalId(stack, stack.originVerify!.secret)]);
  });

  it('fail synthesis when a handler entry is missing', () => {
    const entries = HANDLER_ENTRIES as Record<string, string>;
    const original = entries.management!;
    entries.management = 'functions/management/missing.ts';
    try {
      expect(() => synth()).toThrow(/management.*not found/);
    } finally {
      entries.management = original;
    }
  });
});

describe('HTTP API', () => {
  const integrations = template.findResources('AWS::ApiGatewayV2::Integration') as Record<string, Resource>;
  const routes = Object.values(template.findResources('AWS::ApiGatewayV2::Route')) as Resource[];

  it('has exactly one route per ROUTES entry', () => {
    expect(routes.map((r) => r.Properties.RouteKey).sort()).toEqual(ROUTES.map((r) => `${r.method} ${r.path}`).sort());
  });

  it('gives every GET route HEAD and OPTIONS routes to the same function: the HTTP API routes neither to a GET route', () => {
    const keys = new Set(routes.map((r) => r.Properties.RouteKey as string));
    const targetOf = (key: string) => routes.find((r) => r.Properties.RouteKey === key)!.Properties.Target;
    const gets = ROUTES.filter((route) => route.method === 'GET');
    expect(gets.map((route) => route.path)).toEqual(expect.arrayContaining(['/health', '/openapi.json', '/docs']));
    for (const { path } of gets) {
      for (const method of ['HEAD', 'OPTIONS']) {
        expect(keys.has(`${method} ${path}`), `${method} ${path}`).toBe(true);
        expect(targetOf(`${method} ${path}`)).toEqual(targetOf(`GET ${path}`));
      }
    }
  });

  it('sends each route to its surface’s function, payload format 2.0', () => {
    for (const route of ROUTES) {
      const resource = routes.find((r) => r.Properties.RouteKey === `${route.method} ${route.path}`)!;
      const target = resource.Properties.Target['Fn::Join'][1][1].Ref as string;
      expect(integrations[target]?.Properties).toMatchObject({
        IntegrationType: 'AWS_PROXY',
        PayloadFormatVersion: '2.0',
        IntegrationUri: { 'Fn::GetAtt': [logicalId(stack, stack.functions[route.surface]), 'Arn'] },
      });
      expect(resource.Properties.AuthorizationType).toBe('NONE');
    }
  });

  it('lets API Gateway invoke the function of each route', () => {
    for (const route of ROUTES) {
      template.hasResourceProperties('AWS::Lambda::Permission', {
        Action: 'lambda:InvokeFunction',
        Principal: 'apigateway.amazonaws.com',
        FunctionName: { 'Fn::GetAtt': [logicalId(stack, stack.functions[route.surface]), 'Arn'] },
        SourceArn: { 'Fn::Join': ['', Match.arrayWith([Match.stringLikeRegexp(`/\\*/\\*${escape(route.path)}$`)])] },
      });
    }
  });

  it('has no CORS configuration: the functions answer OPTIONS', () => {
    const [, api] = only('AWS::ApiGatewayV2::Api');
    expect(api.Properties.ProtocolType).toBe('HTTP');
    expect(api.Properties.CorsConfiguration).toBeUndefined();
  });

  it('throttles the auto-deployed default stage', () => {
    const [, stage] = only('AWS::ApiGatewayV2::Stage');
    expect(stage.Properties).toMatchObject({
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 1000, ThrottlingBurstLimit: 2000 },
    });
    const custom = synth({ throttle: { rateLimit: 5, burstLimit: 10 } }).template;
    custom.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      DefaultRouteSettings: { ThrottlingRateLimit: 5, ThrottlingBurstLimit: 10 },
    });
  });
});

describe('outputs', () => {
  it('give the API URL and the table name', () => {
    template.hasOutput('ApiUrl', { Value: { 'Fn::Join': ['', Match.arrayWith(['https://'])] } });
    template.hasOutput('TableName', { Value: { Ref: tableId } });
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
