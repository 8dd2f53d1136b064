import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CfnElement, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { CachePolicy, OriginRequestPolicy } from 'aws-cdk-lib/aws-cloudfront';
import { afterAll, describe, expect, it } from 'vitest';
import { cdkApp } from './support/app.js';
import { EdgeFirewallStack } from '../../infra/edge-firewall-stack.js';
import { LicensingStack } from '../../infra/stack.js';

type Resource = { Type: string; Properties: Record<string, any> };

const outRoot = mkdtempSync(join(tmpdir(), 'edge-firewall-test-'));
afterAll(() => rmSync(outRoot, { recursive: true, force: true }));
const newApp = () => cdkApp(mkdtempSync(join(outRoot, 'app-')));

const ACCOUNT = '123456789012';
const logicalId = (stack: Stack, construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as CfnElement);

/** The two stacks as `bin/app.ts` builds them with `edgeRateLimit`. */
function synthWithFirewall(requestsPer5Minutes: number) {
  const app = newApp();
  const firewall = new EdgeFirewallStack(app, 'LicensingServiceEdgeFirewall', {
    env: { account: ACCOUNT, region: 'us-east-1' },
    crossRegionReferences: true,
    requestsPer5Minutes,
  });
  const service = new LicensingStack(app, 'LicensingService', {
    env: { account: ACCOUNT, region: 'eu-west-1' },
    crossRegionReferences: true,
    edgeFirewall: { webAclArn: firewall.webAclArn },
    bundle: false,
  });
  return { firewall, service, firewallTemplate: Template.fromStack(firewall), template: Template.fromStack(service) };
}

describe('edge firewall off (the default)', () => {
  const stack = new LicensingStack(newApp(), 'LicensingService', { bundle: false });
  const template = Template.fromStack(stack);

  it('creates no web ACL and no distribution in front of the API: the dashboard’s is the only one', () => {
    template.resourceCountIs('AWS::WAFv2::WebACL', 0);
    template.resourceCountIs('AWS::CloudFront::Distribution', 1);
    expect(Object.keys(template.findResources('AWS::CloudFront::Distribution'))).toEqual([logicalId(stack, stack.dashboardSite.distribution)]);
    expect(Object.keys(template.toJSON().Outputs)).not.toContain('EdgeUrl');
  });
});

describe('edge firewall on', () => {
  const { firewall, service, firewallTemplate, template } = synthWithFirewall(2000);
  const distribution = template.toJSON().Resources[logicalId(service, service.edgeDistribution!.distribution)] as Resource;
  const config = distribution.Properties.DistributionConfig;
  const secretId = logicalId(service, service.originVerify.secret);
  const originVerifyToken = { 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId }, ':SecretString:::}}']] };

  it('has a CLOUDFRONT web ACL in us-east-1 that blocks an IP over the limit in 5 minutes with 429', () => {
    expect(firewall.region).toBe('us-east-1');
    firewallTemplate.resourceCountIs('AWS::WAFv2::WebACL', 1);
    firewallTemplate.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'CLOUDFRONT',
      DefaultAction: { Allow: {} },
      Rules: [
        Match.objectLike({
          Statement: { RateBasedStatement: { Limit: 2000, AggregateKeyType: 'IP', EvaluationWindowSec: 300 } },
          Action: { Block: { CustomResponse: Match.objectLike({ ResponseCode: 429, CustomResponseBodyKey: 'too-many-requests' }) } },
        }),
      ],
      CustomResponseBodies: { 'too-many-requests': { ContentType: 'APPLICATION_JSON', Content: '{"error":"Too many requests"}' } },
    });
    template.resourceCountIs('AWS::WAFv2::WebACL', 0);
  });

  it('puts that web ACL on a distribution in front of the HTTP API, through a cross-region reference', () => {
    // The edge distribution and the dashboard's, which carries the same web ACL.
    template.resourceCountIs('AWS::CloudFront::Distribution', 2);
    const readerId = config.WebACLId['Fn::GetAtt'][0] as string;
    expect(template.toJSON().Resources[readerId].Type).toBe('Custom::CrossRegionExportReader');
    const [writer] = Object.values(firewallTemplate.findResources('Custom::CrossRegionExportWriter')) as Resource[];
    expect(Object.values(writer!.Properties.WriterProps.exports)).toEqual([{ 'Fn::GetAtt': [firewall.getLogicalId(firewall.webAcl), 'Arn'] }]);
    expect(config.Origins).toEqual([
      expect.objectContaining({
        DomainName: { 'Fn::Select': [2, { 'Fn::Split': ['/', { 'Fn::GetAtt': [logicalId(service, service.api), 'ApiEndpoint'] }] }] },
        CustomOriginConfig: expect.objectContaining({ OriginProtocolPolicy: 'https-only' }),
      }),
    ]);
  });

  it('caches nothing, passes every method and all of the request but Host, and serves HTTPS only', () => {
    expect(config.DefaultCacheBehavior).toMatchObject({
      ViewerProtocolPolicy: 'https-only',
      AllowedMethods: ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'],
      CachePolicyId: CachePolicy.CACHING_DISABLED.cachePolicyId,
      OriginRequestPolicyId: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER.originRequestPolicyId,
    });
  });

  it('sends a generated secret as x-origin-verify, by dynamic reference, and gives the HTTP functions the same', () => {
    template.resourceCountIs('AWS::SecretsManager::Secret', 2); // the download-link secret and the origin secret
    template.hasResourceProperties('AWS::SecretsManager::Secret', { GenerateSecretString: Match.objectLike({ ExcludePunctuation: true }) });
    expect(config.Origins[0].OriginCustomHeaders).toEqual([{ HeaderName: 'x-origin-verify', HeaderValue: originVerifyToken }]);
    const variables = (fn: { node: { defaultChild?: unknown } }) =>
      (template.toJSON().Resources[logicalId(service, fn)] as Resource).Properties.Environment.Variables;
    for (const fn of Object.values(service.functions)) expect(variables(fn).ORIGIN_VERIFY_TOKEN).toEqual(originVerifyToken);
    for (const worker of [service.webhookDelivery.fanOut, service.webhookDelivery.dispatcher, service.expirySweep.function]) {
      expect(variables(worker)).not.toHaveProperty('ORIGIN_VERIFY_TOKEN');
    }
  });

  it('outputs the URL behind the firewall beside the API URL', () => {
    template.hasOutput('EdgeUrl', {
      Value: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [logicalId(service, service.edgeDistribution!.distribution), 'DomainName'] }, '/']] },
    });
    template.hasOutput('ApiUrl', {});
  });

  it('refuses a limit WAF does not take', () => {
    for (const limit of [9, 0, 2.5, 2_000_000_001]) expect(() => synthWithFirewall(limit)).toThrow(/whole number of requests per 5 minutes from 10/);
  });

  it('demands an explicit account and region for the service stack', () => {
    const app = newApp();
    const firewallStack = new EdgeFirewallStack(app, 'Firewall', { env: { account: ACCOUNT, region: 'us-east-1' }, crossRegionReferences: true, requestsPer5Minutes: 100 });
    expect(
      () => new LicensingStack(app, 'LicensingService', { crossRegionReferences: true, edgeFirewall: { webAclArn: firewallStack.webAclArn }, bundle: false }),
    ).toThrow(/explicit account and region/);
  });
});
