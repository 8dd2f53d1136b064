import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CfnElement, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { CachePolicy, OriginRequestPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { afterAll, describe, expect, it } from 'vitest';
import { SERVICE_PATH_PREFIXES } from '../../infra/routes.js';
import { LicensingStack } from '../../infra/stack.js';
import { cdkApp } from './support/app.js';

type Resource = { Type: string; Properties: Record<string, any> };

const outRoot = mkdtempSync(join(tmpdir(), 'dashboard-site-test-'));
afterAll(() => rmSync(outRoot, { recursive: true, force: true }));

const stack = new LicensingStack(cdkApp(mkdtempSync(join(outRoot, 'app-'))), 'LicensingService', { bundle: false });
const template = Template.fromStack(stack);
const logicalId = (s: Stack, construct: { node: { defaultChild?: unknown } }) => s.getLogicalId(construct.node.defaultChild as CfnElement);
const site = stack.dashboardSite;
const config = (template.toJSON().Resources[logicalId(stack, site.distribution)] as Resource).Properties.DistributionConfig;
const originId = (domainTest: (domain: unknown) => boolean) => (config.Origins as { Id: string; DomainName: unknown }[]).find((origin) => domainTest(origin.DomainName))!.Id;

describe('the dashboard site', () => {
  it('keeps the build in a private bucket that only the distribution reads, through origin access control', () => {
    template.hasResourceProperties('AWS::S3::Bucket', {
      PublicAccessBlockConfiguration: { BlockPublicAcls: true, BlockPublicPolicy: true, IgnorePublicAcls: true, RestrictPublicBuckets: true },
      LoggingConfiguration: { DestinationBucketName: { Ref: logicalId(stack, stack.releaseBucket.accessLogBucket) }, LogFilePrefix: 'dashboard/' },
    });
    template.resourceCountIs('AWS::CloudFront::OriginAccessControl', 1);
    template.hasResourceProperties('AWS::S3::BucketPolicy', {
      Bucket: { Ref: logicalId(stack, site.bucket) },
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({
            Effect: 'Allow',
            Principal: { Service: 'cloudfront.amazonaws.com' },
            Action: 's3:GetObject',
            Condition: { StringEquals: { 'AWS:SourceArn': Match.anyValue() } },
          }),
        ]),
      },
    });
  });

  it('serves the single-page app: index.html at the root and, by a viewer-request function, for paths without a file', () => {
    expect(config.DefaultRootObject).toBe('index.html');
    expect(config.CustomErrorResponses).toBeUndefined(); // they would rewrite the API's own 404s too
    expect(config.DefaultCacheBehavior).toMatchObject({
      ViewerProtocolPolicy: 'redirect-to-https',
      CachePolicyId: CachePolicy.CACHING_OPTIMIZED.cachePolicyId,
      FunctionAssociations: [{ EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [expect.stringMatching(/^DashboardSiteSpaRouting/), 'FunctionARN'] } }],
    });
    const [fn] = Object.values(template.findResources('AWS::CloudFront::Function')) as Resource[];
    expect(fn!.Properties.FunctionCode).toContain("request.uri = '/index.html'");
  });

  it('routes /api/* to the HTTP API: every method, nothing cached, cookies, query strings and headers but Host passed, the origin secret sent', () => {
    const apiOriginId = originId((domain) => JSON.stringify(domain).includes('ApiEndpoint'));
    expect(config.CacheBehaviors).toContainEqual(
      expect.objectContaining({
        PathPattern: '/api/*',
        TargetOriginId: apiOriginId,
        ViewerProtocolPolicy: 'https-only',
        AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
        CachePolicyId: CachePolicy.CACHING_DISABLED.cachePolicyId,
        OriginRequestPolicyId: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId,
      }),
    );
    // Every path of the service goes there alike.
    for (const behavior of config.CacheBehaviors) expect(behavior).toMatchObject({ TargetOriginId: apiOriginId, CachePolicyId: CachePolicy.CACHING_DISABLED.cachePolicyId });
    const apiOrigin = (config.Origins as { Id: string; OriginCustomHeaders: unknown; CustomOriginConfig: unknown }[]).find((origin) => origin.Id === apiOriginId)!;
    expect(apiOrigin.CustomOriginConfig).toMatchObject({ OriginProtocolPolicy: 'https-only' });
    expect(apiOrigin.OriginCustomHeaders).toEqual([
      { HeaderName: 'x-origin-verify', HeaderValue: { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: logicalId(stack, stack.originVerify.secret) }, ':SecretString:::}}']] } },
    ]);
  });

  it('routes exactly the service’s paths to the API, as the local gateway splits them; every other path is the site’s', () => {
    expect((config.CacheBehaviors as { PathPattern: string }[]).map((behavior) => behavior.PathPattern).sort()).toEqual(
      SERVICE_PATH_PREFIXES.flatMap((prefix) => [prefix, `${prefix}/*`]).sort(),
    );
    expect(SERVICE_PATH_PREFIXES.sort()).toEqual(['/api', '/dl', '/docs', '/health', '/openapi.json', '/public', '/v1']);
  });

  it('deploys the build into the bucket and invalidates index.html', () => {
    template.hasResourceProperties('Custom::CDKBucketDeployment', {
      DestinationBucketName: { Ref: logicalId(stack, site.bucket) },
      DistributionId: { Ref: logicalId(stack, site.distribution) },
      DistributionPaths: ['/index.html'],
    });
  });

  it('is the DASHBOARD_URL of every function unless dashboardUrl is set, and an output', () => {
    const url = { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [logicalId(stack, site.distribution), 'DomainName'] }]] };
    for (const fn of Object.values(stack.allFunctions)) {
      expect((template.toJSON().Resources[logicalId(stack, fn)] as Resource).Properties.Environment.Variables.DASHBOARD_URL).toEqual(url);
    }
    template.hasOutput('DashboardUrl', {});
  });
});
