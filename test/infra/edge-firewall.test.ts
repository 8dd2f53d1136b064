import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CfnElement, Stack } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { cdkApp } from './support/app.js';
import { EdgeFirewallStack, rateLimitedPaths } from '../../infra/edge-firewall-stack.js';
import { ROUTES } from '../../infra/routes.js';
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

  it('creates no web ACL, and the front door is the only distribution', () => {
    template.resourceCountIs('AWS::WAFv2::WebACL', 0);
    expect(Object.keys(template.findResources('AWS::CloudFront::Distribution'))).toEqual([logicalId(stack, stack.frontDoor!.distribution)]);
    expect(template.toJSON().Resources[logicalId(stack, stack.frontDoor!.distribution)].Properties.DistributionConfig).not.toHaveProperty('WebACLId');
  });
});

describe('edge firewall on', () => {
  const { firewall, service, firewallTemplate, template } = synthWithFirewall(2000);
  const config = (template.toJSON().Resources[logicalId(service, service.frontDoor!.distribution)] as Resource).Properties.DistributionConfig;

  it('has a CLOUDFRONT web ACL in us-east-1 that blocks an IP over the limit in 5 minutes with 429, counting the plugin-facing paths only', () => {
    expect(firewall.region).toBe('us-east-1');
    firewallTemplate.resourceCountIs('AWS::WAFv2::WebACL', 1);
    const startsWith = (prefix: string) => ({
      ByteMatchStatement: { FieldToMatch: { UriPath: {} }, PositionalConstraint: 'STARTS_WITH', SearchString: prefix, TextTransformations: [{ Priority: 0, Type: 'NONE' }] },
    });
    firewallTemplate.hasResourceProperties('AWS::WAFv2::WebACL', {
      Scope: 'CLOUDFRONT',
      DefaultAction: { Allow: {} },
      Rules: [
        Match.objectLike({
          Statement: {
            RateBasedStatement: {
              Limit: 2000,
              AggregateKeyType: 'IP',
              EvaluationWindowSec: 300,
              // Plugins' calls only: not Stripe's shared webhook addresses, vendors' portal servers, or the dashboard.
              ScopeDownStatement: {
                OrStatement: {
                  Statements: [
                    { AndStatement: { Statements: [startsWith('/v1/'), { NotStatement: { Statement: { OrStatement: { Statements: [startsWith('/v1/portal/'), startsWith('/v1/webhooks/stripe/')] } } } }] } },
                    // The hosted portal's sign-in: buyers' browsers, limited per address and e-mail by the service itself.
                    { AndStatement: { Statements: [startsWith('/public/v1/'), { NotStatement: { Statement: startsWith('/public/v1/portal/sign-in') } }] } },
                    // The Composer repository (DECISIONS §24), the edge function's too.
                    startsWith('/composer/'),
                  ],
                },
              },
            },
          },
          Action: { Block: { CustomResponse: Match.objectLike({ ResponseCode: 429, CustomResponseBodyKey: 'too-many-requests' }) } },
        }),
      ],
      CustomResponseBodies: { 'too-many-requests': { ContentType: 'APPLICATION_JSON', Content: '{"error":"Too many requests"}' } },
    });
    template.resourceCountIs('AWS::WAFv2::WebACL', 0);
  });

  it('counts what plugins call and nothing that shares a few addresses among many callers', () => {
    const counted = (path: string) => rateLimitedPaths().some(({ prefix, except }) => path.startsWith(prefix) && !except.some((excluded) => path.startsWith(excluded)));
    for (const path of ['/v1/licenses/validate', '/v1/licenses/activate', '/v1/updates/check', '/v1/download/rel_1', '/v1/feeds/acme/electron/latest.yml', '/v1/download/rel_1/linux-x64/app.deb', '/public/v1/validate', '/composer/packages.json']) expect(counted(path), path).toBe(true);
    for (const path of ['/v1/webhooks/stripe/usr_1', '/v1/portal/licenses', '/public/v1/portal/sign-in', '/portal', '/api/auth/login', '/dl/rel_1', '/health', '/docs', '/', '/assets/index.js']) {
      expect(counted(path), path).toBe(false);
    }
    // Every route is either counted or not, by the routes' own table: a new surface under /v1 is left out by itself.
    expect(ROUTES.filter((route) => counted(route.path.replace(/\{[^}]+\}/g, 'x'))).map((route) => route.surface)).toEqual(
      ROUTES.filter((route) => route.surface === 'edge' || route.surface === 'public').map((route) => route.surface),
    );
  });

  it('puts that web ACL on the front door, the one distribution, through a cross-region reference', () => {
    template.resourceCountIs('AWS::CloudFront::Distribution', 1);
    const readerId = config.WebACLId['Fn::GetAtt'][0] as string;
    expect(template.toJSON().Resources[readerId].Type).toBe('Custom::CrossRegionExportReader');
    const [writer] = Object.values(firewallTemplate.findResources('Custom::CrossRegionExportWriter')) as Resource[];
    expect(Object.values(writer!.Properties.WriterProps.exports)).toEqual([{ 'Fn::GetAtt': [firewall.getLogicalId(firewall.webAcl), 'Arn'] }]);
  });

  it('has no address of its own beside the front door', () => {
    expect(Object.keys(template.toJSON().Outputs)).not.toContain('EdgeUrl');
    template.hasOutput('ApiUrl', { Value: { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [logicalId(service, service.frontDoor!.distribution), 'DomainName'] }, '/']] } });
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
