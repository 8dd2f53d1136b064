import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { CachePolicy, OriginRequestPolicy, PriceClass } from 'aws-cdk-lib/aws-cloudfront';
import { afterAll, describe, expect, it } from 'vitest';
import { RETIRED_ASSET_DAYS } from '../../infra/constructs/dashboard-site.js';
import { dashboardContentSecurityPolicy, IMMUTABLE_CACHE_CONTROL, REVALIDATE_CACHE_CONTROL } from '../../infra/dashboard-headers.js';
import { logicalIdOf } from '../../infra/names.js';
import { SERVICE_PATH_PREFIXES } from '../../infra/routes.js';
import { LicensingStack, type LicensingStackProps } from '../../infra/stack.js';
import { FUNCTION_CONFIG_SECTIONS } from '../../shared/platform/config.js';
import { cdkApp } from './support/app.js';
import { statementsOf } from './support/policies.js';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';

type Resource = { Type: string; Properties: Record<string, any>; DependsOn?: string[] };

const outRoot = mkdtempSync(join(tmpdir(), 'front-door-test-'));
afterAll(() => rmSync(outRoot, { recursive: true, force: true }));

function synth(props: LicensingStackProps = {}, id = 'LicensingService') {
  const stack = new LicensingStack(cdkApp(mkdtempSync(join(outRoot, 'app-'))), id, { bundle: false, mailFrom: 'licenses@example.com', ...props });
  const template = Template.fromStack(stack);
  const variables = (fn: { node: { defaultChild?: unknown } }) => (template.toJSON().Resources[logicalIdOf(fn as never)] as Resource).Properties.Environment.Variables as Record<string, unknown>;
  return { stack, template, variables };
}

// Synthesized up front: a busy machine can take longer than a test's timeout per synthesis.
const { stack, template, variables } = synth();
const withDomain = synth({ env: { account: '123456789012', region: 'us-east-1' }, customDomain: { domainName: 'licenses.example.com', hostedZone: { hostedZoneId: 'Z0123456789ABC', zoneName: 'example.com' } } });
const withCertificate = synth({ customDomain: { domainName: 'licenses.example.com', certificateArn: 'arn:aws:acm:us-east-1:123456789012:certificate/abc' }, priceClass: PriceClass.PRICE_CLASS_ALL });
const apiOnly = synth({ dashboard: false });
const apiOnlyWithDomain = synth({ dashboard: false, customDomain: { domainName: 'api.example.com', certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/abc' } });

const frontDoor = stack.frontDoor!;
const config = (template.toJSON().Resources[logicalIdOf(frontDoor.distribution)] as Resource).Properties.DistributionConfig;
const behaviorFor = (pattern: string) => (config.CacheBehaviors as { PathPattern: string }[]).find((behavior) => behavior.PathPattern === pattern) as Record<string, any>;
const originNamed = (id: string) => (config.Origins as Record<string, any>[]).find((origin) => origin.Id === id)!;
const distributionUrl = { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [logicalIdOf(frontDoor.distribution), 'DomainName'] }]] };
const originSecret = { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: logicalIdOf(stack.originVerify!.secret) }, ':SecretString:::}}']] };
const policy = (t: Template, id: unknown) => (t.toJSON().Resources[(id as { Ref: string }).Ref] as Resource).Properties.ResponseHeadersPolicyConfig;

describe('the front door', () => {
  it('is the one distribution: the dashboard by default, every service path to the API, release files to their bucket', () => {
    template.resourceCountIs('AWS::CloudFront::Distribution', 1);
    expect((config.CacheBehaviors as { PathPattern: string }[]).map((behavior) => behavior.PathPattern).sort()).toEqual(
      [...SERVICE_PATH_PREFIXES.flatMap((prefix) => [prefix, `${prefix}/*`]), '/releases/*'].sort(),
    );
    expect(SERVICE_PATH_PREFIXES.sort()).toEqual(['/api', '/composer', '/dl', '/docs', '/health', '/openapi.json', '/portal', '/public', '/v1']);
    expect(config.PriceClass).toBe('PriceClass_100');
    expect(withCertificate.template.toJSON().Resources[logicalIdOf(withCertificate.stack.frontDoor!.distribution)].Properties.DistributionConfig.PriceClass).toBe('PriceClass_All');
  });

  it('sends the service’s paths to the HTTP API: every method, nothing cached, all of the request but Host, the origin secret, security headers', () => {
    for (const prefix of SERVICE_PATH_PREFIXES) {
      for (const pattern of [prefix, `${prefix}/*`]) {
        expect(behaviorFor(pattern)).toMatchObject({
          ViewerProtocolPolicy: 'https-only',
          AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
          CachePolicyId: CachePolicy.CACHING_DISABLED.cachePolicyId,
          OriginRequestPolicyId: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId,
        });
      }
    }
    const api = originNamed(behaviorFor('/api/*').TargetOriginId);
    expect(api.DomainName).toEqual({ 'Fn::Select': [2, { 'Fn::Split': ['/', { 'Fn::GetAtt': [logicalIdOf(stack.api), 'ApiEndpoint'] }] }] });
    expect(api.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only' });
    expect(api.OriginCustomHeaders).toEqual([{ HeaderName: 'x-origin-verify', HeaderValue: originSecret }]);
    expect(policy(template, behaviorFor('/v1/*').ResponseHeadersPolicyId)).toEqual({
      Comment: expect.any(String),
      // CloudFront's names are the account's: the region is in it (test/infra/regions.test.ts).
      Name: { 'Fn::Join': ['', [{ Ref: 'AWS::Region' }, expect.stringMatching(/^-LicensingService-DashboardSite-[0-9A-F]{8}-ApiHeaders$/)]] },
      SecurityHeadersConfig: {
        StrictTransportSecurity: { AccessControlMaxAgeSec: 63072000, IncludeSubdomains: true, Override: true },
        ContentTypeOptions: { Override: true },
        FrameOptions: { FrameOption: 'DENY', Override: true },
        ReferrerPolicy: { ReferrerPolicy: 'no-referrer', Override: false },
      },
    });
  });

  it('passes /releases/* to the release bucket’s regional host, GET and HEAD only, uncached, with the presigned query and no viewer header', () => {
    const releases = behaviorFor('/releases/*');
    expect(releases).toMatchObject({ ViewerProtocolPolicy: 'https-only', AllowedMethods: ['GET', 'HEAD'], CachePolicyId: CachePolicy.CACHING_DISABLED.cachePolicyId });
    const origin = originNamed(releases.TargetOriginId);
    expect(origin.DomainName).toEqual({ 'Fn::GetAtt': [logicalIdOf(stack.releaseBucket.bucket), 'RegionalDomainName'] });
    expect(origin).not.toHaveProperty('OriginAccessControlId');
    expect(origin.OriginCustomHeaders).toBeUndefined();
    const requestPolicy = template.toJSON().Resources[releases.OriginRequestPolicyId.Ref].Properties.OriginRequestPolicyConfig;
    expect(requestPolicy).toMatchObject({ QueryStringsConfig: { QueryStringBehavior: 'all' }, HeadersConfig: { HeaderBehavior: 'none' }, CookiesConfig: { CookieBehavior: 'none' } });
    // The functions that presign downloads hand them out on the front door.
    for (const surface of ['edge', 'portal'] as const) expect(variables(stack.functions[surface]).RELEASE_FILES_URL).toEqual(distributionUrl);
    for (const surface of ['management', 'public', 'stripeWebhook', 'docs'] as const) expect(variables(stack.functions[surface])).not.toHaveProperty('RELEASE_FILES_URL');
  });

  it('serves the dashboard from its private bucket through origin access control, as a single-page app, with its Content-Security-Policy', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      LoggingConfiguration: { DestinationBucketName: { Ref: logicalIdOf(stack.releaseBucket.accessLogBucket) }, LogFilePrefix: 'dashboard/' },
    });
    template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: logicalIdOf(frontDoor.dashboard.bucket) },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Allow', Principal: { Service: 'cloudfront.amazonaws.com' }, Action: 's3:GetObject', Condition: { StringEquals: { 'AWS:SourceArn': Match.anyValue() } } }),
        ]),
      },
    });
    expect(config.DefaultRootObject).toBe('index.html');
    expect(config.CustomErrorResponses).toBeUndefined(); // they would rewrite the API's own 404s too
    expect(config.DefaultCacheBehavior).toMatchObject({
      ViewerProtocolPolicy: 'redirect-to-https',
      CachePolicyId: CachePolicy.CACHING_OPTIMIZED.cachePolicyId,
      FunctionAssociations: [{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [expect.stringMatching(/^DashboardSiteSpaRouting/), 'FunctionARN'] } }],
    });
    const [fn] = Object.values(template.findResources('AWS::CloudFront::Function')) as Resource[];
    expect(fn!.Properties.FunctionCode).toContain("request.uri = '/index.html'");
    const headers = policy(template, config.DefaultCacheBehavior.ResponseHeadersPolicyId).SecurityHeadersConfig;
    const uploads = { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [logicalIdOf(stack.releaseBucket.bucket), 'RegionalDomainName'] }]] };
    expect(headers.ContentSecurityPolicy.Override).toBe(true);
    expect(JSON.stringify(headers.ContentSecurityPolicy.ContentSecurityPolicy)).toBe(
      JSON.stringify(template.toJSON().Resources[config.DefaultCacheBehavior.ResponseHeadersPolicyId.Ref].Properties.ResponseHeadersPolicyConfig.SecurityHeadersConfig.ContentSecurityPolicy.ContentSecurityPolicy),
    );
    const csp = JSON.stringify(headers.ContentSecurityPolicy.ContentSecurityPolicy);
    for (const directive of dashboardContentSecurityPolicy('UPLOADS').split('; ').filter((d) => !d.includes('UPLOADS'))) expect(csp).toContain(directive);
    expect(csp).toContain(JSON.stringify(uploads['Fn::Join'][1][1]));
    expect(headers).toMatchObject({ FrameOptions: { FrameOption: 'DENY' }, ContentTypeOptions: { Override: true }, StrictTransportSecurity: { IncludeSubdomains: true } });
  });

  it('keeps an open tab working across deployments: assets immutable and never pruned, index.html no-cache and invalidated, retired assets expired a month later', () => {
    const deployments = Object.entries(template.findResources('Custom::CDKBucketDeployment')) as [string, Resource][];
    const [assetsId, assets] = deployments.find(([, d]) => JSON.stringify(d.Properties.Include ?? []).includes('assets/*'))!;
    const [rootId, root] = deployments.find(([id]) => id !== assetsId)!;
    expect(assets.Properties).toMatchObject({ Prune: false, Exclude: ['*'], Include: ['assets/*'], SystemMetadata: { 'cache-control': IMMUTABLE_CACHE_CONTROL } });
    expect(assets.Properties).not.toHaveProperty('DistributionId');
    expect(root.Properties).toMatchObject({
      Exclude: ['assets/*'],
      SystemMetadata: { 'cache-control': REVALIDATE_CACHE_CONTROL },
      DistributionId: { Ref: logicalIdOf(frontDoor.distribution) },
      DistributionPaths: ['/index.html'],
      DestinationBucketName: { Ref: logicalIdOf(frontDoor.dashboard.bucket) },
    });
    expect(root.DependsOn).toEqual(expect.arrayContaining([assetsId]));
    template.hasResourceProperties('AWS::S3::Bucket', {
      LifecycleConfiguration: { Rules: [{ Id: 'expire-retired-assets', Prefix: 'assets/', TagFilters: [{ Key: 'retired', Value: 'true' }], ExpirationInDays: RETIRED_ASSET_DAYS, Status: 'Enabled' }] },
    });
    // After every deployment (its source's keys change with each build), the retirement runs on the dashboard bucket.
    const [retirement] = Object.entries(template.findResources('Custom::DashboardAssetRetirement')) as [string, Resource][];
    expect(retirement![1].Properties).toMatchObject({
      ServiceToken: { 'Fn::GetAtt': [logicalIdOf(frontDoor.dashboard.retirement.function), 'Arn'] },
      BucketName: { Ref: logicalIdOf(frontDoor.dashboard.bucket) },
      Build: { 'Fn::GetAtt': [rootId, 'SourceObjectKeys'] },
    });
    expect(retirement![1].DependsOn).toEqual(expect.arrayContaining([rootId]));
  });

  it('is the public address: PUBLIC_BASE_URL of the functions that build links, DASHBOARD_URL of management, and the outputs', () => {
    const readers = (section: 'links' | 'dashboard') => Object.entries(FUNCTION_CONFIG_SECTIONS).filter(([, sections]) => (sections as readonly string[]).includes(section)).map(([name]) => name);
    for (const [surface, fn] of Object.entries(stack.functions)) {
      expect([surface, variables(fn).PUBLIC_BASE_URL]).toEqual([surface, readers('links').includes(surface) ? distributionUrl : undefined]);
      expect([surface, variables(fn).DASHBOARD_URL]).toEqual([surface, readers('dashboard').includes(surface) ? distributionUrl : undefined]);
    }
    // The expiry sweep builds the renewal reminders' links.
    expect(variables(stack.expirySweep.function).PUBLIC_BASE_URL).toEqual(distributionUrl);
    expect(Object.keys(variables(stack.expirySweep.function))).not.toEqual(expect.arrayContaining(['DASHBOARD_URL']));
    for (const fn of [stack.webhookDelivery.fanOut, stack.webhookDelivery.dispatcher, stack.mailDelivery.sender, stack.usageEvents.writer]) {
      expect(Object.keys(variables(fn))).not.toEqual(expect.arrayContaining(['PUBLIC_BASE_URL']));
      expect(Object.keys(variables(fn))).not.toEqual(expect.arrayContaining(['DASHBOARD_URL']));
    }
    const outputs = template.toJSON().Outputs;
    const withSlash = { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [logicalIdOf(frontDoor.distribution), 'DomainName'] }, '/']] };
    expect(outputs.ApiUrl.Value).toEqual(withSlash);
    expect(outputs.DashboardUrl.Value).toEqual(withSlash);
    expect(outputs.StripeWebhookUrl.Value).toEqual({ 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [logicalIdOf(frontDoor.distribution), 'DomainName'] }, '/v1/webhooks/stripe/{userId}']] });
  });

  it('gives the HTTP functions alone the origin secret, which they insist on: where it is and a read of it, never its value', () => {
    const secretId = logicalIdOf(stack.originVerify!.secret);
    const grantedTheSecret = (fn: LambdaFunction) => statementsOf(stack, template, fn).some((statement) => JSON.stringify(statement.Resource) === JSON.stringify({ Ref: secretId }));
    for (const fn of Object.values(stack.functions)) {
      expect(variables(fn).ORIGIN_VERIFY_SECRET_ARN).toEqual({ Ref: secretId });
      expect(grantedTheSecret(fn)).toBe(true);
    }
    for (const fn of Object.values(stack.allFunctions).filter((fn) => !Object.values(stack.functions).includes(fn))) {
      expect(variables(fn)).not.toHaveProperty('ORIGIN_VERIFY_SECRET_ARN');
      expect(grantedTheSecret(fn)).toBe(false);
    }
    // No function's configuration holds the value (CloudFront's alone does, as a dynamic reference in the template).
    for (const fn of Object.values(stack.allFunctions)) expect(JSON.stringify(variables(fn))).not.toContain('resolve:secretsmanager');
    expect(JSON.stringify(template.toJSON()).split('{{resolve:secretsmanager:').length - 1).toBe(1);
    // The execute-api address stays on: it is the front door's origin.
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', Match.not(Match.objectLike({ DisableExecuteApiEndpoint: true })));
  });
});

describe('the custom domain on the front door', () => {
  it('in us-east-1 with the hosted zone: a DNS-validated certificate, the name on the distribution with TLS 1.2, A and AAAA aliases', () => {
    const { stack: s, template: t, variables: v } = withDomain;
    const distribution = t.toJSON().Resources[logicalIdOf(s.frontDoor!.distribution)].Properties.DistributionConfig;
    t.hasResourceProperties('AWS::CertificateManager::Certificate', { DomainName: 'licenses.example.com', ValidationMethod: 'DNS' });
    expect(distribution.Aliases).toEqual(['licenses.example.com']);
    expect(distribution.ViewerCertificate).toMatchObject({ MinimumProtocolVersion: 'TLSv1.2_2021', SslSupportMethod: 'sni-only' });
    for (const type of ['A', 'AAAA']) {
      t.hasResourceProperties('AWS::Route53::RecordSet', {
        Name: 'licenses.example.com.',
        Type: type,
        HostedZoneId: 'Z0123456789ABC',
        AliasTarget: { DNSName: { 'Fn::GetAtt': [logicalIdOf(s.frontDoor!.distribution), 'DomainName'] }, HostedZoneId: Match.anyValue() },
      });
    }
    t.resourceCountIs('AWS::ApiGatewayV2::DomainName', 0);
    expect(v(s.functions.edge).PUBLIC_BASE_URL).toBe('https://licenses.example.com');
    expect(v(s.functions.edge).RELEASE_FILES_URL).toBe('https://licenses.example.com');
    expect(v(s.functions.management).DASHBOARD_URL).toBe('https://licenses.example.com');
    expect(t.toJSON().Outputs.ApiUrl.Value).toBe('https://licenses.example.com/');
    expect(t.toJSON().Outputs).not.toHaveProperty('CustomDomainTarget');
  });

  it('with a certificate ARN: no certificate made, no record, the distribution as the CNAME target', () => {
    const { stack: s, template: t } = withCertificate;
    t.resourceCountIs('AWS::CertificateManager::Certificate', 0);
    t.resourceCountIs('AWS::Route53::RecordSet', 0);
    const distribution = t.toJSON().Resources[logicalIdOf(s.frontDoor!.distribution)].Properties.DistributionConfig;
    expect(distribution.ViewerCertificate.AcmCertificateArn).toBe('arn:aws:acm:us-east-1:123456789012:certificate/abc');
    expect(t.toJSON().Outputs.CustomDomainTarget.Value).toEqual({ 'Fn::GetAtt': [logicalIdOf(s.frontDoor!.distribution), 'DomainName'] });
  });

  it('refuses a hosted zone alone outside us-east-1, where the stack cannot make CloudFront’s certificate', () => {
    expect(() => synth({ env: { account: '123456789012', region: 'eu-west-1' }, customDomain: { domainName: 'x.example.com', hostedZone: { hostedZoneId: 'Z1', zoneName: 'example.com' } } })).toThrow(
      /needs a certificate in us-east-1/,
    );
  });
});

describe('rotating the origin secret', () => {
  it('redeploys the distribution when its label changes, so CloudFormation reads the secret’s new value; nothing else changes', () => {
    const comment = (t: Template, s: LicensingStack) => (t.toJSON().Resources[logicalIdOf(s.frontDoor!.distribution)] as Resource).Properties.DistributionConfig.Comment;
    const rotated = synth({ originSecretRotation: '2026-12-01' });
    expect(comment(template, stack)).toBe('Licensing service: the dashboard, the API and release files');
    expect(comment(rotated.template, rotated.stack)).toBe('Licensing service: the dashboard, the API and release files (origin secret: 2026-12-01)');
    expect(rotated.template.toJSON().Outputs.OriginSecretArn.Value).toEqual({ Ref: logicalIdOf(rotated.stack.originVerify!.secret) });
  });
});

describe('dashboard: false (a new account without CloudFront yet)', () => {
  it('has no CloudFront and no origin secret: the HTTP API alone, answering directly', () => {
    const { stack: s, template: t, variables: v } = apiOnly;
    for (const type of ['AWS::CloudFront::Distribution', 'AWS::CloudFront::Function', 'AWS::CloudFront::ResponseHeadersPolicy', 'Custom::CDKBucketDeployment']) t.resourceCountIs(type, 0);
    expect(s.frontDoor).toBeUndefined();
    for (const fn of Object.values(s.functions)) {
      expect(v(fn)).not.toHaveProperty('ORIGIN_VERIFY_SECRET_ARN');
      expect(v(fn)).not.toHaveProperty('RELEASE_FILES_URL');
      expect(v(fn)).not.toHaveProperty('DASHBOARD_URL');
      expect(v(fn)).not.toHaveProperty('PUBLIC_BASE_URL');
    }
    const outputs = t.toJSON().Outputs;
    expect(outputs).not.toHaveProperty('DashboardUrl');
    expect(JSON.stringify(outputs.ApiUrl.Value)).toContain('execute-api');
  });

  it('puts a custom domain on the HTTP API, with a certificate of the stack’s region, as before the front door', () => {
    const { stack: s, template: t, variables: v } = apiOnlyWithDomain;
    t.hasResourceProperties('AWS::ApiGatewayV2::DomainName', { DomainName: 'api.example.com', DomainNameConfigurations: [{ CertificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/abc', EndpointType: 'REGIONAL' }] });
    expect(v(s.functions.edge).PUBLIC_BASE_URL).toBe('https://api.example.com');
    expect(t.toJSON().Outputs.ApiUrl.Value).toBe('https://api.example.com/');
  });

  it('cannot carry the edge firewall, which is a web ACL on the front door', () => {
    expect(() => synth({ dashboard: false, edgeFirewall: { webAclArn: 'arn:aws:wafv2:us-east-1:123456789012:global/webacl/x/y' } })).toThrow(/front door/);
  });
});
