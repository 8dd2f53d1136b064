import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { logicalIdOf } from '../../infra/names.js';
import { LicensingStack, type LicensingStackProps } from '../../infra/stack.js';
import { cdkApp } from './support/app.js';

type Resource = { Type: string; Properties: Record<string, any> };

const outRoot = mkdtempSync(join(tmpdir(), 'deployment-test-'));
afterAll(() => rmSync(outRoot, { recursive: true, force: true }));

function synth(id: string, props: LicensingStackProps = {}) {
  const stack = new LicensingStack(cdkApp(mkdtempSync(join(outRoot, 'app-'))), id, { bundle: false, ...props });
  const template = Template.fromStack(stack);
  const variables = (template.toJSON().Resources[logicalIdOf(stack.functions.edge)] as Resource).Properties.Environment.Variables as Record<string, unknown>;
  return { stack, template, variables, outputs: template.toJSON().Outputs as Record<string, { Value: unknown }> };
}

// Synthesized up front: a busy machine can take longer than a test's timeout per synthesis.
const staging = synth('LicensingService-staging');
// A custom domain on the HTTP API: the shape of a deployment without CloudFront (test/infra/front-door.test.ts has the
// domain on the front door).
const zoneDomain = synth('LicensingService-prod', {
  dashboard: false,
  customDomain: { domainName: 'licenses.example.com', hostedZone: { hostedZoneId: 'Z0123456789ABC', zoneName: 'example.com' } },
});
const certificateDomain = synth('LicensingService-prod', {
  dashboard: false,
  customDomain: { domainName: 'licenses.example.com', certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/abc' },
  publicBaseUrl: 'https://edge.example.com/',
});
const fromSsm = synth('LicensingService-prod', {
  publicBaseUrl: 'ssm:/licensing/public-base-url',
  mailFrom: 'ssm:/licensing/mail-from',
  customDomain: { domainName: 'licenses.example.com', certificateArn: 'ssm:/licensing/certificate-arn' },
});

describe('stages', () => {
  it('name the API, topic, dashboard and alarms after the stack, so stages share an account (and the dashboard after the region too)', () => {
    const { template } = staging;
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { Name: 'LicensingService-staging' });
    template.hasResourceProperties('AWS::SNS::Topic', { TopicName: 'LicensingService-staging-alarms' });
    template.hasResourceProperties('AWS::CloudWatch::Dashboard', { DashboardName: { 'Fn::Join': ['', ['LicensingService-staging-', { Ref: 'AWS::Region' }]] } });
    for (const alarm of Object.values(template.findResources('AWS::CloudWatch::Alarm')) as Resource[]) {
      expect(alarm.Properties.AlarmName).toMatch(/^LicensingService-staging-/);
    }
  });
});

describe('outputs', () => {
  it('give what a vendor needs: the service and Stripe webhook URLs (the front door), bucket, table, alarm topic, dashboard and origin secret', () => {
    const { stack, outputs } = staging;
    const frontDoor = { 'Fn::GetAtt': [logicalIdOf(stack.frontDoor!.distribution), 'DomainName'] };
    expect(Object.keys(outputs).sort()).toEqual(['AlarmTopicArn', 'ApiUrl', 'DashboardName', 'DashboardUrl', 'OriginSecretArn', 'ReleaseBucketName', 'StripeWebhookUrl', 'TableName']);
    expect(outputs.DashboardUrl!.Value).toEqual({ 'Fn::Join': ['', ['https://', frontDoor, '/']] });
    expect(outputs.ApiUrl!.Value).toEqual(outputs.DashboardUrl!.Value);
    expect(outputs.StripeWebhookUrl!.Value).toEqual({ 'Fn::Join': ['', ['https://', frontDoor, '/v1/webhooks/stripe/{userId}']] });
    expect(outputs.ReleaseBucketName!.Value).toEqual({ Ref: logicalIdOf(stack.releaseBucket.bucket) });
    expect(outputs.TableName!.Value).toEqual({ Ref: logicalIdOf(stack.table) });
    expect(outputs.AlarmTopicArn!.Value).toEqual({ Ref: logicalIdOf(stack.alarmTopic.topic) });
    expect(outputs.DashboardName!.Value).toEqual({ Ref: logicalIdOf(stack.dashboard.dashboard) });
  });
});

describe('custom domain on the HTTP API (dashboard: false)', () => {
  it('is absent unless configured', () => {
    staging.template.resourceCountIs('AWS::ApiGatewayV2::DomainName', 0);
    staging.template.resourceCountIs('AWS::CertificateManager::Certificate', 0);
  });

  it('with a hosted zone: a DNS-validated certificate, the domain mapped to the stage, an alias record', () => {
    const { stack, template, variables, outputs } = zoneDomain;
    const domain = stack.customDomain!.domainName;
    template.hasResourceProperties('AWS::CertificateManager::Certificate', {
      DomainName: 'licenses.example.com',
      ValidationMethod: 'DNS',
      DomainValidationOptions: [{ DomainName: 'licenses.example.com', HostedZoneId: 'Z0123456789ABC' }],
    });
    template.hasResourceProperties('AWS::ApiGatewayV2::DomainName', {
      DomainName: 'licenses.example.com',
      DomainNameConfigurations: [{ CertificateArn: { Ref: logicalIdOf(stack.customDomain!.node.findChild('Certificate')) }, EndpointType: 'REGIONAL' }],
    });
    template.hasResource('AWS::ApiGatewayV2::ApiMapping', {
      Properties: { ApiId: { Ref: logicalIdOf(stack.api) }, DomainName: { Ref: logicalIdOf(domain) }, Stage: '$default' },
      DependsOn: [logicalIdOf(stack.stage)],
    });
    template.hasResourceProperties('AWS::Route53::RecordSet', {
      Name: 'licenses.example.com.',
      Type: 'A',
      HostedZoneId: 'Z0123456789ABC',
      AliasTarget: { DNSName: { 'Fn::GetAtt': [logicalIdOf(domain), 'RegionalDomainName'] }, HostedZoneId: { 'Fn::GetAtt': [logicalIdOf(domain), 'RegionalHostedZoneId'] } },
    });
    expect(variables.PUBLIC_BASE_URL).toBe('https://licenses.example.com');
    expect(outputs.ApiUrl!.Value).toBe('https://licenses.example.com/');
    expect(outputs.StripeWebhookUrl!.Value).toBe('https://licenses.example.com/v1/webhooks/stripe/{userId}');
    expect(outputs).not.toHaveProperty('CustomDomainTarget');
  });

  it('with an existing certificate: no new one, no record, the CNAME target as an output; publicBaseUrl still wins', () => {
    const { stack, template, variables, outputs } = certificateDomain;
    template.resourceCountIs('AWS::CertificateManager::Certificate', 0);
    template.resourceCountIs('AWS::Route53::RecordSet', 0);
    template.hasResourceProperties('AWS::ApiGatewayV2::DomainName', {
      DomainNameConfigurations: [{ CertificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/abc', EndpointType: 'REGIONAL' }],
    });
    expect(outputs.CustomDomainTarget!.Value).toEqual({ 'Fn::GetAtt': [logicalIdOf(stack.customDomain!.domainName), 'RegionalDomainName'] });
    expect(variables.PUBLIC_BASE_URL).toBe('https://edge.example.com/');
    expect(outputs.ApiUrl!.Value).toBe('https://licenses.example.com/');
    expect(outputs.StripeWebhookUrl!.Value).toBe('https://edge.example.com/v1/webhooks/stripe/{userId}');
  });
});

describe('settings from SSM', () => {
  it('become parameters that CloudFormation resolves at deployment: the template holds only their names', () => {
    const { template, variables } = fromSsm;
    const parameters = template.toJSON().Parameters as Record<string, { Type: string; Default: string }>;
    const parameterNamed = (name: string) => Object.entries(parameters).find(([, p]) => p.Default === name)!;
    for (const name of ['/licensing/public-base-url', '/licensing/mail-from', '/licensing/certificate-arn']) {
      expect(parameterNamed(name)[1].Type).toBe('AWS::SSM::Parameter::Value<String>');
    }
    expect(variables.PUBLIC_BASE_URL).toEqual({ Ref: parameterNamed('/licensing/public-base-url')[0] });
    const sender = (template.toJSON().Resources[logicalIdOf(fromSsm.stack.mailDelivery.sender)] as Resource).Properties.Environment.Variables;
    expect(sender.MAIL_FROM).toEqual({ Ref: parameterNamed('/licensing/mail-from')[0] });
    expect(variables).not.toHaveProperty('MAIL_FROM');
    // The custom domain is on the front door, whose certificate (us-east-1) the parameter names.
    const distribution = Object.values(template.findResources('AWS::CloudFront::Distribution'))[0] as Resource;
    expect(distribution.Properties.DistributionConfig.ViewerCertificate.AcmCertificateArn).toEqual({ Ref: parameterNamed('/licensing/certificate-arn')[0] });
  });
});
