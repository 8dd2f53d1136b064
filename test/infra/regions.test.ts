import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { buildStacks } from '../../infra/app.js';
import { readDeploySettings } from '../../infra/settings.js';
import { cdkApp } from './support/app.js';

const outRoot = mkdtempSync(join(tmpdir(), 'regions-test-'));
afterAll(() => rmSync(outRoot, { recursive: true, force: true }));

/**
 * Resources whose names are the account's, not the region's, by the property that names them: two with the same name
 * in one account collide ("already exists") whatever their regions.
 */
const ACCOUNT_WIDE_NAMES: Record<string, (properties: Record<string, any>) => unknown> = {
  'AWS::CloudFront::ResponseHeadersPolicy': (p) => p.ResponseHeadersPolicyConfig.Name,
  'AWS::CloudFront::OriginRequestPolicy': (p) => p.OriginRequestPolicyConfig.Name,
  'AWS::CloudFront::CachePolicy': (p) => p.CachePolicyConfig.Name,
  'AWS::CloudFront::OriginAccessControl': (p) => p.OriginAccessControlConfig.Name,
  'AWS::CloudFront::Function': (p) => p.Name,
  'AWS::CloudFront::KeyValueStore': (p) => p.Name,
  'AWS::CloudWatch::Dashboard': (p) => p.DashboardName,
  'AWS::IAM::Role': (p) => p.RoleName,
  'AWS::IAM::ManagedPolicy': (p) => p.ManagedPolicyName,
  'AWS::S3::Bucket': (p) => p.BucketName,
};

/** Resources whose names are the region's, by the property that names them (the stacks themselves are checked apart). */
const REGION_WIDE_NAMES: Record<string, (properties: Record<string, any>) => unknown> = {
  'AWS::CloudWatch::Alarm': (p) => p.AlarmName,
  'AWS::SNS::Topic': (p) => p.TopicName,
  'AWS::ApiGatewayV2::Api': (p) => p.Name,
  'AWS::WAFv2::WebACL': (p) => p.Name,
  'AWS::SSM::Parameter': (p) => p.Name,
  'AWS::Lambda::Function': (p) => p.FunctionName,
  'AWS::Logs::LogGroup': (p) => p.LogGroupName,
};

/**
 * A name as CloudFormation will set it: a string, or a join of strings (the region is written out in an explicit env).
 * `undefined` for a name built on another resource's (a log group named after its function): CloudFormation generates
 * that one unique.
 */
function written(name: unknown): string | undefined {
  if (typeof name === 'string') return name;
  const join = (name as { 'Fn::Join'?: [string, unknown[]] })['Fn::Join'];
  if (join) {
    const parts = join[1].map(written);
    return parts.includes(undefined) ? undefined : parts.join(join[0]);
  }
  if (typeof name === 'object' && name !== null && ('Ref' in name || 'Fn::GetAtt' in name)) return undefined;
  throw new Error(`a name CloudFormation decides at deployment: ${JSON.stringify(name)}`);
}

/** Every stack of one region's deployment of stage `prod`, the edge firewall and a custom domain in a hosted zone included. */
function deployment(region: string, domainName: string) {
  const app = cdkApp(mkdtempSync(join(outRoot, 'app-')));
  const settings = readDeploySettings(
    (key) =>
      ({
        account: '123456789012',
        region,
        edgeRateLimit: '2000',
        mailFrom: 'licenses@example.com',
        domainName,
        hostedZoneId: 'Z0123456789ABC',
        hostedZoneName: 'example.com',
      })[key],
  );
  const stacks: Stack[] = Object.values(buildStacks(app, settings, { bundle: false })).filter((stack) => stack !== undefined);
  return stacks.map((stack) => ({ stack, region: stack.region, template: Template.fromStack(stack).toJSON() as { Resources: Record<string, { Type: string; Properties?: Record<string, any> }> } }));
}

const europe = deployment('eu-west-1', 'licenses-eu.example.com');
const america = deployment('us-west-2', 'licenses-us.example.com');

/** Each named resource of a kind as `<scope>|<type>|<name>`, the scope being the account or the resource's region. */
function names(stacks: ReturnType<typeof deployment>, kinds: typeof ACCOUNT_WIDE_NAMES, scopeOf: (region: string) => string): string[] {
  return stacks.flatMap(({ region, template }) =>
    Object.values(template.Resources).flatMap((resource) => {
      const nameOf = kinds[resource.Type];
      const name = nameOf?.(resource.Properties ?? {});
      const text = name === undefined ? undefined : written(name);
      return text === undefined ? [] : [`${scopeOf(region)}|${resource.Type}|${text}`];
    }),
  );
}

const duplicates = (list: string[]) => list.filter((item, index) => list.indexOf(item) !== index);

describe('the same stage in a second region of one account', () => {
  it('deploys stacks named apart in every region, the us-east-1 ones of CloudFront included', () => {
    const stacks = [...europe, ...america].map(({ stack, region }) => `${region}|${stack.stackName}`);
    expect(stacks.filter((name) => name.startsWith('us-east-1|'))).toHaveLength(4);
    expect(duplicates(stacks)).toEqual([]);
  });

  it('gives the resources whose names are the account’s names of their own, the region among them', () => {
    const accountWide = names([...europe, ...america], ACCOUNT_WIDE_NAMES, () => 'account');
    // The front door's three policies, its origin access control and routing function, and the CloudWatch dashboard.
    expect(accountWide.filter((name) => name.includes('eu-west-1'))).toHaveLength(6);
    expect(accountWide.filter((name) => name.includes('us-west-2'))).toHaveLength(6);
    expect(duplicates(accountWide)).toEqual([]);
  });

  it('gives the resources whose names are the region’s names of their own in each region', () => {
    expect(duplicates(names([...europe, ...america], REGION_WIDE_NAMES, (region) => region))).toEqual([]);
  });
});
